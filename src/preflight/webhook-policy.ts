/**
 * `webhooks.url` (the URL policy for user-supplied webhook endpoints) and
 * `webhooks.allowed_fields`, as langgraph-api's WebhookUrlPolicy and webhooks validator read them.
 */
import type { Checker, Node } from './document.js';
import { child, properties, typeName } from './document.js';
import { checkBoolean, checkInteger } from './values.js';

const HOST_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
const URL_KEYS = new Set([
  'require_https',
  'allowed_domains',
  'allowed_ports',
  'max_url_length',
  'disable_loopback',
  'disable_private_ips',
]);
// The fields a webhook payload can carry (langgraph-api's VALID_WEBHOOK_ALLOWED_FIELDS).
const PAYLOAD_FIELDS = [
  'assistant_id',
  'created_at',
  'error',
  'kwargs',
  'metadata',
  'multitask_strategy',
  'run_ended_at',
  'run_id',
  'run_started_at',
  'status',
  'thread_id',
  'updated_at',
  'values',
  'webhook_sent_at',
];

function checkDomain(c: Checker, key: string, node: Node): void {
  if (node.type !== 'string' || String(node.value) === '') {
    c.error(
      key,
      node,
      `${key} is ${node.type === 'string' ? 'empty' : typeName(node)}: allowed_domains holds host names such as "hooks.example.com" or "*.example.com".`,
    );
    return;
  }
  const domain = String(node.value);
  if (domain.includes('*') && !domain.startsWith('*.')) {
    c.error(
      key,
      node,
      `${key} is "${domain}": a wildcard is only allowed as a prefix, in the form "*.example.com". The agent server does not start otherwise.`,
    );
    return;
  }
  const host = domain.startsWith('*.') ? domain.slice(2) : domain;
  let hint = '';
  if (domain.includes('://')) hint = ' Remove the scheme: only the host name goes here.';
  else if (/[/?#]/.test(host)) hint = ' Remove the path: only the host name goes here.';
  else if (host.includes(':')) hint = ' Remove the port (ports go to allowed_ports).';
  const labels = host.replace(/\.$/, '').split('.');
  if (hint || host.length > 253 || !labels.every((l) => HOST_LABEL.test(l))) {
    c.error(
      key,
      node,
      `${key} is "${domain}", which is not a host name (e.g. "hooks.example.com" or "*.example.com"), so no webhook URL would match it.${hint}`,
    );
  }
}

export function checkUrlPolicy(c: Checker, webhooks: Node): void {
  const url = child(webhooks, 'url');
  if (!url || url.type === 'null') return;
  if (url.type !== 'object') {
    c.error(
      'webhooks.url',
      url,
      `webhooks.url is ${typeName(url)}: it must be an object (require_https, allowed_domains, allowed_ports, max_url_length, disable_loopback).`,
    );
    return;
  }
  for (const { key: name, keyNode, value } of properties(url)) {
    const key = `webhooks.url.${name}`;
    if (!URL_KEYS.has(name)) {
      c.warning(
        key,
        keyNode,
        `webhooks.url has an unknown key "${name}", which is ignored. Known keys: ${[...URL_KEYS].join(', ')}.`,
      );
    } else if (
      name === 'require_https' ||
      name === 'disable_loopback' ||
      name === 'disable_private_ips'
    ) {
      checkBoolean(c, key, value);
    } else if (name === 'max_url_length') {
      checkInteger(
        c,
        key,
        value,
        1,
        Number.MAX_SAFE_INTEGER,
        'an integer of at least 1 (a number of characters)',
      );
    } else if (value.type !== 'array') {
      const example =
        name === 'allowed_ports' ? '[443, 8443]' : '["hooks.example.com", "*.example.com"]';
      c.error(
        key,
        value,
        `${key} is ${typeName(value)}: it must be an array of ${name === 'allowed_ports' ? 'port numbers' : 'host names'}, e.g. ${example}.`,
      );
    } else {
      (value.children ?? []).forEach((item, i) => {
        if (name === 'allowed_ports')
          checkInteger(c, `${key}[${i}]`, item, 1, 65535, 'an integer port number from 1 to 65535');
        else checkDomain(c, `${key}[${i}]`, item);
      });
    }
  }
}

export function checkAllowedFields(c: Checker, webhooks: Node): void {
  const node = child(webhooks, 'allowed_fields');
  if (!node || node.type === 'null') return;
  const key = 'webhooks.allowed_fields';
  if (node.type !== 'array') {
    c.error(
      key,
      node,
      `${key} is ${typeName(node)}: it must be a list of payload field names (${PAYLOAD_FIELDS.join(', ')}).`,
    );
    return;
  }
  (node.children ?? []).forEach((item, i) => {
    if (item.type !== 'string' || !PAYLOAD_FIELDS.includes(String(item.value))) {
      c.error(
        `${key}[${i}]`,
        item,
        `${key}[${i}] is ${item.type === 'string' ? `"${String(item.value)}"` : typeName(item)}, which is not a webhook payload field; the agent server does not start with it. Valid fields: ${PAYLOAD_FIELDS.join(', ')}.`,
      );
    }
  });
}
