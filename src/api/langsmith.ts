/**
 * The LangSmith API (datasets, examples, experiments, runs) through the official `langsmith`
 * SDK's `Client`, pointed at `langsmith-api-url`, on the action's own HTTP layer: the SDK's
 * `fetchImplementation` is `createResilientFetch`, so every call has the run's retries,
 * deadline, cancellation, size cap and key rule. The SDK's own retries are off (they would
 * retry our deadline and cancellation, and a POST whose outcome is unknown), and so is its
 * tracing: the action records runs itself only when an agent server did not. A call to any
 * other origin than the API URL is refused before it is sent (the key goes there only).
 */
import type { Client } from 'langsmith/client';
import * as z from 'zod';
import { ActionError, ApiError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';
import { parseJson, serverDetail } from './answers.js';
import { createResilientFetch, type HttpContext } from './http/request.js';

const SessionSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  tenant_id: z.string().optional(),
  start_time: z.union([z.string(), z.number()]).optional(),
  reference_dataset_id: z.string().nullish(),
  extra: z.looseObject({ metadata: z.record(z.string(), z.unknown()).nullish() }).nullish(),
});
/** Per feedback key: how many scores (`n`) and their mean (`avg`, null when not numeric). */
const StatsSchema = z.record(
  z.string(),
  z.looseObject({ n: z.number().nullish(), avg: z.number().nullish() }),
);
const RunSchema = z.object({
  id: z.string(),
  reference_example_id: z.string().nullish(),
  feedback_stats: StatsSchema.nullish(),
});
const DatasetSchema = z.object({ id: z.string(), name: z.string() });
const ExampleSchema = z.object({ id: z.string(), inputs: z.record(z.string(), z.unknown()) });

export type Experiment = z.infer<typeof SessionSchema>;
export type RootRun = z.infer<typeof RunSchema>;
export type Example = z.infer<typeof ExampleSchema>;
/** What the evaluation asks of LangSmith (tests implement it in memory). */
export type LangSmith = Awaited<ReturnType<typeof langsmithClient>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_EXPERIMENTS = 5000;

/** A LangSmith answer that was not a success, worded for the workflow's author. */
function answerError(status: number, text: string, url: URL): ApiError {
  const said = serverDetail(parseJson(text), 300);
  const detail = said ? `: ${said}` : '';
  const call = `LangSmith (${url.origin}${url.pathname})`;
  const refused = status === 401 || status === 403;
  const message = refused
    ? `${call} refused the API key (HTTP ${status})${detail}. Check \`api-key\`: it must be a ` +
      'LangSmith API key of the workspace that holds the dataset (with an organization-scoped ' +
      'key, set `workspace-id`), for the LangSmith API of `langsmith-api-url` (by default the ' +
      'one of `region` or `control-plane-url`).'
    : `${call} answered HTTP ${status}${detail}.` +
      (status >= 500 || status === 429
        ? ' LangSmith may be having trouble: re-run the job later.'
        : '');
  const title = refused ? 'LangSmith refused the API key' : 'LangSmith request failed';
  return new ApiError(message, { status, title });
}

/** A shape check of what the SDK returned: a mismatch names the call, never the values. */
function shaped<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues[0]?.path.join('.') || '(answer)';
  throw new ActionError(
    `LangSmith answered ${what} in an unexpected shape (at ${inert(where, 100)}). Check that ` +
      '`langsmith-api-url` points at the LangSmith API.',
    'Unexpected LangSmith answer',
  );
}

/** At most `max` items of an SDK list. */
async function take<T>(list: AsyncIterable<T>, max: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) if (items.push(item) >= max) break;
  return items;
}

/** The SDK's client on our HTTP layer (loaded when an evaluation runs: it is large). */
export async function langsmithClient(options: {
  apiUrl: string;
  apiKey: string;
  workspaceId?: string | undefined;
  http: HttpContext;
}) {
  const { Client } = await import('langsmith/client');
  const origin = new URL(options.apiUrl).origin;
  const transport = createResilientFetch(options.http);
  const fetchImplementation = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) {
      throw new ActionError(
        `The LangSmith SDK asked for ${inert(url.host, 200)}, which is not the LangSmith API ` +
          `(${origin}): refused, the API key goes to the LangSmith API only.`,
      );
    }
    const res = await transport(input, init);
    if (!res.ok) throw answerError(res.status, await res.text(), url);
    return res;
  }) as typeof fetch;
  const client: Client = new Client({
    apiUrl: options.apiUrl,
    apiKey: options.apiKey,
    ...(options.workspaceId && { workspaceId: options.workspaceId }),
    fetchImplementation,
    // Our layer bounds each call by the deadline; the SDK's own timeout only must not cut it.
    timeout_ms: Math.ceil(options.http.deadline.remainingMs()) + 1000,
    callerOptions: { maxRetries: 0 },
    autoBatchTracing: false,
    omitTracedRuntimeInfo: true,
    disablePromptCache: true,
  });
  // The SDK sets its caller's retries after the options (4): every failure, our deadline and
  // cancellation included, would be retried on top of our own retries.
  (client as unknown as { caller: { maxRetries: number } }).caller.maxRetries = 0;

  return {
    /** A dataset by ID (a UUID) or name; undefined when there is none. */
    dataset: async (key: string) => {
      const query = UUID.test(key) ? { datasetIds: [key] } : { datasetName: key };
      const [found] = await take(client.listDatasets(query), 1);
      return shaped(DatasetSchema.optional(), found, 'a dataset');
    },
    /** The dataset's examples (in `splits`, when given), every page, but at most `max` + 1. */
    examples: async (datasetId: string, splits: string[], max: number) => {
      const list = client.listExamples({ datasetId, ...(splits.length > 0 && { splits }) });
      return shaped(z.array(ExampleSchema), await take(list, max + 1), 'the examples');
    },
    /** An experiment by ID (a UUID) or name; undefined when there is none. */
    experiment: async (key: string) => {
      const query = UUID.test(key) ? { projectIds: [key] } : { name: key };
      const [found] = await take(client.listProjects(query), 1);
      return shaped(SessionSchema.optional(), found, 'an experiment');
    },
    /** The dataset's experiments whose metadata holds `metadata`, every page (at most 5,000). */
    experiments: async (datasetId: string, metadata: Record<string, unknown>) => {
      const list = client.listProjects({ referenceDatasetId: datasetId, metadata });
      return shaped(z.array(SessionSchema), await take(list, MAX_EXPERIMENTS), 'the experiments');
    },
    createExperiment: async (
      name: string,
      datasetId: string,
      metadata: Record<string, unknown>,
    ) => {
      const description = 'Evaluation of a deployment by langgraph-deploy-action';
      const made = await client.createProject({
        projectName: name,
        referenceDatasetId: datasetId,
        metadata,
        description,
      });
      return shaped(SessionSchema, made, 'the new experiment');
    },
    /** The experiment's feedback per key, read as a whole (`include_stats`). */
    feedbackStats: async (experimentId: string) => {
      const session = await client.readProject({ projectId: experimentId, includeStats: true });
      const stats = (session as { feedback_stats?: unknown }).feedback_stats ?? {};
      return shaped(StatsSchema, stats, "the experiment's feedback");
    },
    /** The experiment's root runs (`is_root`), every page (at most `max`). */
    rootRuns: async (experimentId: string, max: number) => {
      // `_listRuns`: `listRuns` without its deprecation warning (the same POST /runs/query).
      const list = (client as unknown as { _listRuns: Client['listRuns'] })._listRuns({
        projectId: experimentId,
        isRoot: true,
        select: ['id', 'reference_example_id', 'feedback_stats'],
      });
      return shaped(z.array(RunSchema), await take(list, max), "the experiment's runs");
    },
    /** Records a finished root run (for an agent server that did not trace it). */
    createRun: (run: Omit<RunCreate, 'id' | 'run_type'>): Promise<void> =>
      client.createRun({ ...run, id: crypto.randomUUID(), run_type: 'chain' }),
  };
}

/** The fields of a run the action records itself (the SDK's names). */
type RunCreate = Parameters<Client['createRun']>[0] & {
  project_name: string;
  reference_example_id: string;
  start_time: number;
  end_time: number;
};
