/**
 * Plausible build and deploy logs of a revision, derived from the statuses it has gone through.
 * Failed revisions end with an error line that names the failure.
 */
import type { DeploymentRecord } from './state.js';
import type { RevisionRecord, StatusChange } from './timeline.js';

/** The shape the `langgraph deploy` CLI reads: `timestamp` is epoch ms (or a string). */
export interface LogEntry {
  id: string;
  timestamp: number | string;
  level: 'INFO' | 'WARNING' | 'ERROR';
  message: string;
}

/** How far along the standard path a status implies the revision got. */
const STAGE: Record<string, number> = {
  CREATING: 0,
  CREATE_FAILED: 0,
  QUEUED: 1,
  AWAITING_BUILD: 2,
  BUILDING: 3,
  BUILD_FAILED: 3,
  AWAITING_DEPLOY: 4,
  DEPLOYING: 5,
  DEPLOY_FAILED: 5,
  DEPLOYED: 6,
};

export const BUILD_ERROR =
  'ERROR: failed to solve: process "/bin/sh -c pip install -c /api/constraints.txt -e /deps/*" ' +
  'did not complete successfully: exit code: 1';
export const DEPLOY_ERROR =
  "ERROR: agent server exited with code 1: ModuleNotFoundError: No module named 'agent'";

export function revisionLogs(
  dep: DeploymentRecord,
  rev: RevisionRecord,
  history: StatusChange[],
  type: 'build' | 'deploy',
): LogEntry[] {
  const final = history[history.length - 1]!;
  const reached = Math.max(-1, ...history.map((h) => STAGE[h.status] ?? -1));
  const timeOf = (stage: number) =>
    history.find((h) => (STAGE[h.status] ?? -1) >= stage)?.at ?? final.at;
  const entries: LogEntry[] = [];
  // Build logs carry epoch milliseconds, deploy logs ISO strings: both forms the CLI accepts.
  const add = (at: number, message: string, level: LogEntry['level'] = 'INFO') =>
    entries.push({
      id: `${rev.id}-${type}-${entries.length}`,
      timestamp:
        type === 'build' ? at + entries.length : new Date(at + entries.length).toISOString(),
      level,
      message,
    });
  const cfg = rev.config;

  if (type === 'build') {
    add(rev.createdAt, `Revision ${rev.id} created for deployment ${dep.name}.`);
    if (final.status === 'CREATE_FAILED') {
      add(
        final.at,
        dep.source === 'github'
          ? `ERROR: failed to create revision: repository ${dep.sourceConfig.repo_url} is not ` +
              `accessible with GitHub integration ${dep.sourceConfig.integration_id}`
          : `ERROR: failed to create revision: image ${cfg.image_uri} could not be resolved`,
        'ERROR',
      );
    }
    if (reached >= 1) add(timeOf(1), 'Queued for build.');
    if (reached >= 3) {
      const t = timeOf(3);
      if (dep.source === 'github' || dep.source === 'internal_source') {
        add(
          t,
          dep.source === 'github'
            ? `Cloning ${dep.sourceConfig.repo_url} at ${cfg.repo_ref}`
            : `Unpacking the uploaded source ${cfg.source_tarball_path}`,
        );
        add(t, `Reading ${cfg.langgraph_config_path}`);
        add(t, 'Step 1/6 : FROM langchain/langgraph-api:3.11');
        add(t, 'Step 4/6 : RUN pip install -c /api/constraints.txt -e /deps/*');
      } else {
        add(t, `Pulling image ${cfg.image_uri}`);
      }
    }
    if (final.status === 'BUILD_FAILED') {
      add(
        final.at,
        dep.source === 'github' || dep.source === 'internal_source'
          ? BUILD_ERROR
          : `ERROR: failed to pull image ${cfg.image_uri}: manifest unknown`,
        'ERROR',
      );
    }
    if (reached >= 4) add(timeOf(4), `Successfully built image for revision ${rev.id}.`);
  } else {
    if (reached >= 4) add(timeOf(4), 'Waiting for deploy.');
    if (reached >= 5) {
      add(timeOf(5), `Rolling out revision ${rev.id}.`);
      add(timeOf(5), 'Starting agent server.');
    }
    if (final.status === 'DEPLOY_FAILED') {
      add(final.at, DEPLOY_ERROR, 'ERROR');
      add(
        final.at,
        'ERROR: deployment failed: the agent server did not pass its health check',
        'ERROR',
      );
    }
    if (reached >= 6) {
      add(timeOf(6), 'Application startup complete.');
      add(timeOf(6), 'Uvicorn running on http://0.0.0.0:8000');
    }
  }
  if (final.status === 'SKIPPED') {
    add(final.at, 'Revision superseded by a newer revision: skipped.', 'WARNING');
  }
  if (final.status === 'INTERRUPTED') {
    add(final.at, 'Revision interrupted.', 'WARNING');
  }
  return entries;
}

/**
 * One page of `entries` for the `offset` cursor (an index as a string). Oldest first, the
 * cursor always says where to go on (the log of a building revision grows); newest first, it
 * is null once the oldest entry was given.
 */
export function pageOfLogs(
  entries: LogEntry[],
  order: 'asc' | 'desc',
  limit: number,
  offset: number,
): { logs: LogEntry[]; next_offset: string | null } {
  const ordered = order === 'desc' ? [...entries].reverse() : entries;
  const logs = ordered.slice(offset, offset + limit);
  const next = offset + logs.length;
  if (order === 'asc') return { logs, next_offset: String(next) };
  return { logs, next_offset: next < ordered.length ? String(next) : null };
}
