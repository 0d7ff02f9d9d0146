/**
 * How a reviewer reaches the deployment, for the top of the pull-request comment: first the
 * deployment's page in LangSmith (`ui-url`, a page a browser can open), then the agent
 * server's API URL with a `curl` to copy, which sends the API key from an environment
 * variable (never the key itself: the comment is public to everyone who can read the PR).
 */
import { codeFence, codeSpan, markdownLink } from './markdown.js';
import type { RunReport } from './record.js';

/** The variable the `curl` line reads the key from. */
export const API_KEY_VARIABLE = 'LANGSMITH_API_KEY';

/**
 * `curl` of the agent server's `/ok` with the key header. The URL (from the control plane,
 * already checked to be http(s)) is single-quoted for the shell; a quote in it is
 * percent-encoded, which means the same URL.
 */
export function curlCommand(url: string): string {
  const target = `${url.replace(/\/+$/, '')}/ok`.replace(/'/g, '%27');
  return `curl -H "X-Api-Key: $${API_KEY_VARIABLE}" '${target}'`;
}

/**
 * The lines that lead the comment (the comment's only links to the deployment); empty when
 * neither URL is known (e.g. after a delete). The `curl` only when it can answer: the revision
 * is `DEPLOYED` (after a failed build or deploy, or while waiting, the URL is shown alone).
 */
export function accessSection(report: RunReport): string {
  if (report.command !== 'deploy') return '';
  const parts: string[] = [];
  if (report.uiUrl) {
    parts.push(`**${markdownLink('Open the deployment in LangSmith', report.uiUrl)}**`);
  }
  if (report.url && report.status === 'DEPLOYED') {
    parts.push(
      `Agent server (answers only with a LangSmith API key; set ` +
        `${codeSpan(API_KEY_VARIABLE)} in your shell first):`,
      codeFence(curlCommand(report.url), 'sh'),
    );
  } else if (report.url) {
    parts.push(`Agent server: ${codeSpan(report.url)}`);
  }
  return parts.join('\n\n');
}
