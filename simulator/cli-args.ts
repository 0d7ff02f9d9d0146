/** Command-line flags of `npm run sim` (see cli.ts), turned into `SimulatorOptions`. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_TIMELINE, parseTimeline, scaleTimeline } from './timeline.js';
import type { AgentBehaviour, Fault, SimulatorOptions } from './types.js';

export const USAGE = `Usage: npm run sim -- [options]

A local stand-in for the LangSmith Deployment control plane (/v2/deployments..., also under
/api-host) and for each deployment's agent server (/agents/<deployment-id>). Prints
"Simulator listening at <url> (API key: <key>)"; with SIM_READY_FILE=<path> in the
environment it also writes {"url", "apiKey"} to that file once listening. Stops on Ctrl-C.

Server
  --port N                 port to listen on (default 0: any free port)
  --host H                 address to listen on (default 127.0.0.1)
  --api-key KEY            an accepted X-Api-Key value; repeat for several (default sim-key)
  --require-tenant         answer 403 to control-plane requests without X-Tenant-Id

Revision timeline (every new revision walks it in real time)
  --timeline STATUS:ms,... the statuses and how long each lasts; the last one never ends
                           (default QUEUED:300,AWAITING_BUILD:300,BUILDING:600,
                           AWAITING_DEPLOY:300,DEPLOYING:600,DEPLOYED:0, about 2.1 s)
                           e.g. --timeline QUEUED:1000,BUILDING:3000,BUILD_FAILED:0
  --speed X                run the timeline X times faster: --speed 10 takes a tenth of the
                           time, --speed 0.1 ten times longer (default 1)
  --no-supersede           a new revision does not mark older unfinished ones SKIPPED
  --queue-behind           a new revision waits in QUEUED until the one in progress ends
                           (or is interrupted: POST .../revisions/<id>/interrupt)
  --commit-sha SHA         repo_commit_sha reported by github revisions (default: none)
  --no-logs                the revision logs endpoint answers 404 (an install without logs)
  --no-revisions-endpoint  POST /v2/deployments/<id>/revisions answers 405 (an older
                           self-hosted install: clients PATCH instead)
  --no-interruption-path   only .../revisions/<id>/interrupt, not the older .../interruption
  --delete-delay ms        a deleted deployment stays AWAITING_DELETE this long (default 0)

Limits and faults
  --rate-limit N/ms        at most N requests per API key in any ms milliseconds, then 429
                           with Retry-After (default 1000/10000)
  --fault SPEC             make matching requests fail; repeatable, checked in order. SPEC is
                           KIND[,method=M][,path=P][,times=N] (times default 1; path exact,
                           or ~REGEX; the path as logged, without /api-host and the query):
                             status=CODE         answer CODE (e.g. status=503, status=429)
                             reset               close the connection, request not applied
                             commit-then-reset   apply the request, then close the connection
                             commit-then-status=CODE  apply it, then answer CODE
                             delay=ms            answer ms milliseconds late
                             malformed-json      answer 200 with a body that is not JSON
                           e.g. --fault status=503,method=GET,times=3
                                --fault commit-then-reset,method=POST,path=/v2/deployments

LangSmith API (/api/v1: datasets, examples, sessions, runs, feedback)
  --evaluator-delay ms     a dataset's evaluators score a run this long after it ended
                           (default 0)
  --langsmith-seed FILE    datasets and experiments to start with, a JSON file:
                           {"datasets": [{"name", "examples": [{"inputs", "outputs",
                           "splits"}], "evaluators": [{"key", "score": "match" | "no-error"
                           | number, "delayMs", "never"}]}], "experiments": [{"name",
                           "dataset", "metadata", "startTime", "scores": {"<key>": number |
                           [number per example]}}]} (see simulator/README.md)

Agent servers (of every deployment)
  --graphs a,b             graph IDs, one assistant each (default agent)
  --agent-run KIND         how a streamed run ends: success, error or interrupt (default success)
  --unhealthy N            the first N GET /ok answer 503
  --help                   this text

Also usable from code (tests): import { startSimulator } from 'simulator/index.js'; see
simulator/README.md.`;

/** What the CLI starts: the simulator's options plus the faults to inject once it listens. */
export interface CliOptions extends SimulatorOptions {
  faults?: Fault[];
  /** `--langsmith-seed`: a JSON file of datasets and experiments to seed once listening. */
  langsmithSeed?: string;
}

function number(flag: string, text: string, min: number, options: { above?: boolean } = {}) {
  const value = Number(text);
  const low = options.above ? value <= min : value < min;
  if (text.trim() === '' || !Number.isFinite(value) || low) {
    throw new Error(
      `--${flag} needs a number ${options.above ? '>' : '>='} ${min}, got "${text}".`,
    );
  }
  return value;
}

function wholeNumber(flag: string, text: string, min: number): number {
  const value = number(flag, text, min);
  if (!Number.isInteger(value)) throw new Error(`--${flag} needs a whole number, got "${text}".`);
  return value;
}

/** Parses one `--fault` SPEC (see USAGE). */
export function parseFault(spec: string): Fault {
  const [head = '', ...rest] = spec.split(',').map((p) => p.trim());
  const [kind = '', arg] = head.split('=', 2) as [string, string | undefined];
  const where: { method?: string; path?: string | RegExp; times?: number } = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key === 'method' && value) where.method = value.toUpperCase();
    else if (key === 'path' && value) {
      where.path = value.startsWith('~') ? new RegExp(value.slice(1)) : value;
    } else if (key === 'times' && value) where.times = wholeNumber('fault times', value, 1);
    else throw new Error(`--fault "${spec}": unknown part "${part}" (method=, path=, times=).`);
  }
  const code = (what: string) => {
    if (!arg || !/^[1-5]\d\d$/.test(arg)) {
      throw new Error(`--fault "${spec}": ${what} needs an HTTP status code, e.g. ${what}=503.`);
    }
    return Number(arg);
  };
  switch (kind) {
    case 'status':
      return { kind, status: code(kind), ...where };
    case 'commit-then-status':
      return { kind, status: code(kind), ...where };
    case 'delay':
      return { kind, ms: number('fault delay', arg ?? '', 0), ...where };
    case 'reset':
    case 'commit-then-reset':
    case 'malformed-json':
      if (arg !== undefined) throw new Error(`--fault "${spec}": ${kind} takes no value.`);
      return { kind, ...where };
    default:
      throw new Error(
        `--fault "${spec}": unknown kind "${kind}" (status, reset, commit-then-reset, ` +
          'commit-then-status, delay, malformed-json).',
      );
  }
}

/** Every flag; `--help` (USAGE) documents each one (a test checks). */
export const FLAGS = {
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  'api-key': { type: 'string', multiple: true },
  speed: { type: 'string', default: '1' },
  timeline: { type: 'string' },
  'require-tenant': { type: 'boolean', default: false },
  'rate-limit': { type: 'string' },
  'delete-delay': { type: 'string' },
  'no-logs': { type: 'boolean', default: false },
  'no-revisions-endpoint': { type: 'boolean', default: false },
  'no-interruption-path': { type: 'boolean', default: false },
  'no-supersede': { type: 'boolean', default: false },
  'queue-behind': { type: 'boolean', default: false },
  'commit-sha': { type: 'string' },
  fault: { type: 'string', multiple: true },
  graphs: { type: 'string' },
  'agent-run': { type: 'string' },
  unhealthy: { type: 'string' },
  'evaluator-delay': { type: 'string' },
  'langsmith-seed': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Throws with a message naming the flag when a value is wrong; `help` when asked for usage. */
export function parseCliArgs(argv: string[]): CliOptions | 'help' {
  const { values } = parseArgs({ args: argv, options: FLAGS, strict: true });
  if (values.help) return 'help';
  // --speed is a speed: 10 runs the timeline ten times faster (durations divided by 10).
  const speed = number('speed', values.speed, 0, { above: true });
  const base = values.timeline ? parseTimeline(values.timeline) : [...DEFAULT_TIMELINE];
  const options: CliOptions = {
    port: wholeNumber('port', values.port, 0),
    host: values.host,
    timeline: scaleTimeline(base, 1 / speed),
    requireTenant: values['require-tenant'],
    logsEndpoint: !values['no-logs'],
  };
  if (values['no-supersede']) options.supersede = false;
  if (values['no-revisions-endpoint']) options.revisionsEndpoint = false;
  if (values['no-interruption-path']) options.interruptionPath = false;
  if (values['api-key']) options.apiKeys = values['api-key'];
  if (values['commit-sha']) options.commitSha = values['commit-sha'];
  if (values['queue-behind']) options.queueBehind = true;
  if (values['delete-delay']) {
    options.deleteDelayMs = number('delete-delay', values['delete-delay'], 0);
  }
  if (values['rate-limit']) {
    const match = /^(\d+)\/(\d+)$/.exec(values['rate-limit']);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      throw new Error(
        `--rate-limit needs REQUESTS/MILLISECONDS (e.g. 5/1000), got "${values['rate-limit']}".`,
      );
    }
    options.rateLimit = { requests: Number(match[1]), windowMs: Number(match[2]) };
  }
  if (values.fault) options.faults = values.fault.map(parseFault);
  if (values['evaluator-delay']) {
    options.langsmith = {
      evaluatorDelayMs: number('evaluator-delay', values['evaluator-delay'], 0),
    };
  }
  if (values['langsmith-seed']) options.langsmithSeed = values['langsmith-seed'];
  const agent: Partial<AgentBehaviour> = {};
  if (values.graphs) {
    const graphs = values.graphs.split(',').map((g) => g.trim());
    if (graphs.some((g) => g === '')) {
      throw new Error(`--graphs needs comma-separated graph IDs, got "${values.graphs}".`);
    }
    agent.graphs = graphs;
  }
  if (values['agent-run']) {
    const run = values['agent-run'];
    if (run !== 'success' && run !== 'error' && run !== 'interrupt') {
      throw new Error(`--agent-run needs success, error or interrupt, got "${run}".`);
    }
    agent.run = run;
  }
  if (values.unhealthy) agent.unhealthyCount = wholeNumber('unhealthy', values.unhealthy, 0);
  if (Object.keys(agent).length > 0) options.agent = agent;
  return options;
}
