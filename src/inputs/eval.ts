/**
 * The evaluation gate's inputs (`eval-*` and `langsmith-api-url`, INTERFACE v1.3 "Evaluation
 * gate"), checked with every other input before any request: each problem names its input.
 */
import { parse, YAMLParseError } from 'yaml';
import type { BaseConfig, Region } from './config.js';
import { feedbackHostFor, type Checks } from './validate.js';
import type { InputName } from './spec.js';
import { isRecord } from '../lib/text.js';
import { inert } from '../lib/untrusted.js';

/** The rules of one feedback key (or of `*`, every key). */
export interface GateRule {
  /** The mean must be at least this. */
  min?: number;
  /** The mean may fall at most this much below the baseline's (a significant drop fails). */
  maxDrop?: number;
}

const RULES: Record<string, keyof GateRule> = { min: 'min', 'max-drop': 'maxDrop' };
const GATE_EXAMPLE = 'e.g. `{correctness: {min: 0.8, max-drop: 0.05}, "*": {max-drop: 0.1}}`';

/**
 * The LangSmith API of a control plane: a LangSmith Cloud region's API host (the feedback
 * host: `api.smith.langchain.com`, `eu.api.smith…`), else the same origin's `/api/v1` (a
 * self-hosted install, the simulator).
 */
export function langsmithApiUrlFor(controlPlaneUrl: string, region: Region): string {
  const url = new URL(controlPlaneUrl);
  const host = feedbackHostFor(controlPlaneUrl, region);
  return host === url.host ? `${url.origin}/api/v1` : `https://${host}`;
}

/** `eval-gate`: a YAML mapping of feedback key to rules, or the problem with it. */
export function parseGate(raw: string) {
  const fail = (why: string) => ({ ok: false as const, message: `Input \`eval-gate\` ${why}` });
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : parse(raw);
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos ? ` (line ${error.linePos[0].line})` : '';
    return fail(
      `is not valid YAML${where}: give a mapping of feedback key to rules, ${GATE_EXAMPLE}.`,
    );
  }
  if (!isRecord(value)) {
    return fail(`must be a YAML mapping of feedback key to rules, ${GATE_EXAMPLE}.`);
  }
  // No prototype: a feedback key such as `constructor` or `__proto__` is a key like any other.
  const gate: Record<string, GateRule> = Object.create(null);
  for (const [key, rules] of Object.entries(value)) {
    const name = `"${inert(key, 100)}"`;
    if (!isRecord(rules) || Object.keys(rules).length === 0) {
      return fail(
        `gives key ${name} no rules: give it \`min\` and/or \`max-drop\`, ${GATE_EXAMPLE}.`,
      );
    }
    const rule: GateRule = {};
    for (const [ruleName, limit] of Object.entries(rules)) {
      const field = Object.hasOwn(RULES, ruleName) ? RULES[ruleName] : undefined;
      if (field === undefined) {
        return fail(
          `names the rule "${inert(ruleName, 50)}" for key ${name}, which does not exist: the ` +
            'rules are `min` (the lowest mean allowed) and `max-drop` (the largest drop from ' +
            'the baseline allowed).',
        );
      }
      if (
        typeof limit !== 'number' ||
        !Number.isFinite(limit) ||
        (field === 'maxDrop' && limit < 0)
      ) {
        return fail(
          `gives \`${ruleName}\` of key ${name} the value "${inert(String(limit), 50)}": it must ` +
            `be a ${field === 'maxDrop' ? 'number of at least 0' : 'number'} (a score, e.g. 0.05).`,
        );
      }
      rule[field] = limit;
    }
    gate[key] = rule;
  }
  return { ok: true as const, gate };
}

export type EvalConfig = NonNullable<ReturnType<typeof readEvalInputs>>;

/** The evaluation's settings, or undefined without `eval-dataset` (no evaluation). */
export function readEvalInputs(
  getInput: (name: InputName) => string,
  check: Checks,
  base: Pick<BaseConfig, 'controlPlaneUrl' | 'region'>,
  wait: boolean,
) {
  const dataset = getInput('eval-dataset');
  const assistant = getInput('eval-assistant');
  const gate = parseGate(getInput('eval-gate'));
  if (!gate.ok) check.problem('eval-gate', gate.message);
  const config = {
    /** The dataset's name or ID. */
    dataset,
    /** The LangSmith API, without a trailing slash. */
    apiUrl:
      check.httpUrl('langsmith-api-url', getInput('langsmith-api-url'), true) ??
      langsmithApiUrlFor(base.controlPlaneUrl, base.region),
    /** Empty: the whole dataset. */
    splits: getInput('eval-splits')
      .split(/\s*,\s*/)
      .filter(Boolean),
    ...(assistant && { assistant }),
    maxExamples: check.count('eval-max-examples', getInput('eval-max-examples'), 100_000),
    concurrency: check.count('eval-concurrency', getInput('eval-concurrency'), 64),
    /** `auto`, `none`, or an experiment's name or ID. */
    baseline: getInput('eval-baseline') || 'auto',
    /** Feedback key (or `*`) → its rules; empty: report only. */
    gate: gate.ok ? gate.gate : {},
    waitSeconds: check.seconds('eval-wait', getInput('eval-wait')),
  };
  if (/^(auto|none)$/i.test(config.baseline)) config.baseline = config.baseline.toLowerCase();
  if (dataset === '') return undefined;
  if (!wait) {
    check.notes.push(
      '`eval-dataset` is set but `wait` is false: the evaluation runs only once the revision is ' +
        'live, so this run does not evaluate. Set `wait: true` to evaluate.',
    );
  }
  return config;
}
