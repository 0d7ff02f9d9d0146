/**
 * The evaluation's section of the step summary and the PR comment: one table (key, this run,
 * baseline, difference with its 95% interval, examples scored, verdict), the link to the
 * LangSmith compare view, and the runs that failed. Every value from LangSmith or the agent
 * (keys, names, errors) goes through `./markdown.ts`.
 */
import type { EvaluationReport } from '../verify/eval/index.js';
import { figure, interval } from '../verify/eval/compare.js';
import { codeSpan, escapeMarkdown, markdownLink } from './markdown.js';

const VERDICTS = {
  passed: '✅ passed',
  failed: '❌ failed',
  incomplete: '⚠️ incomplete',
  reported: '—',
} as const;

export function evaluationSection(evaluation: EvaluationReport | undefined): string {
  if (!evaluation) return '';
  const { keys, examples, gated, passed, baselineName, errors, failedRuns } = evaluation;
  const outcome = !gated ? 'no gate' : passed ? 'gate passed' : '**gate failed**';
  const compared = baselineName ? ` compared with ${codeSpan(baselineName)}` : ' (no baseline)';
  const rows = keys.map((k) => {
    const paired = k.delta !== null && k.paired < k.n ? `, ${k.paired} paired` : '';
    const cells = [
      codeSpan(k.key, { inTable: true }),
      figure(k.mean),
      baselineName ? figure(k.baseline) : '—',
      `${interval(k)}${paired}`,
      `${k.n} of ${examples}`,
      VERDICTS[k.verdict],
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const reasons = keys
    .filter((k) => k.verdict === 'failed')
    .map((k) => `- ❌ ${codeSpan(k.key)}: ${escapeMarkdown(k.reasons.join('; '))}`);
  const listed = errors.map((e) => `- ${codeSpan(e.example)}: ${escapeMarkdown(e.error)}`);
  const more = failedRuns - errors.length;
  return [
    `#### Evaluation on ${codeSpan(evaluation.dataset)}: ${examples} examples, ${outcome}`,
    `Experiment ${codeSpan(evaluation.experimentName)}${compared}` +
      (evaluation.url ? ` · ${markdownLink('Compare in LangSmith', evaluation.url)}` : ''),
    keys.length === 0
      ? 'No evaluator scored the runs: bind an evaluator to the dataset in LangSmith.'
      : [
          '| Key | This run | Baseline | Difference (95% interval) | Examples scored | Verdict |',
          '|---|---|---|---|---|---|',
          ...rows,
        ].join('\n'),
    reasons.join('\n'),
    evaluation.recorded > 0
      ? `${evaluation.recorded} runs were recorded by the action: the agent server did not trace them.`
      : '',
    failedRuns > 0
      ? [
          `${failedRuns} of ${examples} example runs failed:`,
          ...listed,
          ...(more > 0 ? [`- and ${more} more (the experiment has them all)`] : []),
        ].join('\n')
      : '',
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
