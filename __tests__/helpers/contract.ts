/**
 * The action's public contract (INTERFACE.md, v1): its inputs with their defaults and its
 * outputs. Written out here because a clone has no ../shared; action-yml.test.ts checks
 * action.yml against it, and the input tests start from these defaults as the runner would.
 */
/** The contract's inputs and their defaults (`undefined`: required, no default). */
export const CONTRACT_INPUTS: Record<string, string | undefined> = {
  'api-key': undefined,
  'workspace-id': '',
  region: 'us',
  'control-plane-url': '',
  command: 'deploy',
  name: '',
  'deployment-id': '',
  source: 'github',
  'integration-id': '',
  'repo-url': '', // derived in code: <server_url>/<repository>
  'repo-ref': '', // derived in code from the event
  'config-path': 'langgraph.json',
  'image-uri': '',
  'custom-url': '',
  'listener-id': '',
  'k8s-namespace': '',
  'deployment-type': 'serverless', // v1.3
  'build-on-push': 'false',
  secrets: '',
  'resource-spec': '',
  'dry-run': 'false',
  'skip-unchanged': 'true',
  'interrupt-previous': 'false',
  'install-command': '',
  'build-command': '',
  wait: 'true',
  timeout: '1800',
  'poll-interval': '15',
  'health-check': 'true',
  'build-log': 'tail',
  'smoke-test': '',
  'smoke-test-assistant': '',
  'rollback-on-failure': 'false',
  'rollback-to': '',
  tests: '',
  'tests-feedback-key': 'ci',
  'delete-tracing-project': 'false',
  'github-token': '${{ github.token }}',
  'pr-comment': 'true',
  environment: '',
};

export const CONTRACT_OUTPUTS = [
  'deployment-id',
  'revision-id',
  'name',
  'status',
  'url',
  'created',
  'ui-url',
  'commit-sha',
  'rolled-back-to',
  'deleted',
  'tests-passed',
  'tests-failed',
  'skipped-build',
  'source-digest',
  // v1.3: `command: registry-login`.
  'registry',
  'image',
];
