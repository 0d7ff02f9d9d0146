import { afterAll, describe, expect, it } from '@jest/globals';
import { checkEnvReferences } from '../../src/preflight/index.js';
import type { ParsedLangGraphConfig } from '../../src/preflight/index.js';
import { VALID, check, errors, keys, removeWorkspaces, warnings } from './helpers.js';

afterAll(removeWorkspaces);

const withWebhooks = (webhooks: unknown, extra: object = {}) => ({ ...VALID, ...extra, webhooks });
const withHeaders = (headers: Record<string, unknown>, extra: object = {}) =>
  withWebhooks({ headers }, extra);

describe('webhooks.headers: env prefix', () => {
  it('rejects a variable without the default prefix, saying how to rename it', () => {
    const r = check(withHeaders({ Authorization: 'Bearer ${{ env.API_TOKEN }}' }));
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({
      key: 'webhooks.headers.Authorization',
      file: 'langgraph.json',
      line: 10,
      column: 32,
    });
    expect(errors(r)[0]?.message).toBe(
      "webhooks.headers.Authorization references env.API_TOKEN, but only variables starting with LG_WEBHOOK_ may be referenced (webhooks.env_prefix). Rename the variable to LG_WEBHOOK_API_TOKEN in the config and in the action's secrets.",
    );
    expect(r.parsed?.envReferences).toEqual([]);
  });

  it('accepts variables with the prefix, several per value and mixed with literals', () => {
    const r = check(
      withHeaders({
        Authorization: 'Bearer ${{ env.LG_WEBHOOK_A }}',
        'X-Pair': '${{env.LG_WEBHOOK_B}}:${{ env.LG_WEBHOOK_C }}',
      }),
    );
    expect(r.findings).toEqual([]);
    expect(r.parsed?.envReferences.map((e) => [e.variable, e.key, e.line, e.column])).toEqual([
      ['LG_WEBHOOK_A', 'webhooks.headers.Authorization', 10, 32],
      ['LG_WEBHOOK_B', 'webhooks.headers.X-Pair', 11, 18],
      ['LG_WEBHOOK_C', 'webhooks.headers.X-Pair', 11, 40],
    ]);
  });

  it('follows a custom webhooks.env_prefix', () => {
    const r = check(
      withWebhooks({
        env_prefix: 'HOOK_',
        headers: { A: '${{ env.HOOK_A }}', B: '${{ env.LG_WEBHOOK_B }}' },
      }),
    );
    expect(keys(errors(r))).toEqual(['webhooks.headers.B']);
    expect(errors(r)[0]?.message).toContain('starting with HOOK_');
    expect(errors(r)[0]?.message).toContain('Rename the variable to HOOK_LG_WEBHOOK_B');
  });

  it('keeps the case of the suggested name when only the case of the prefix is wrong', () => {
    const r = check(withHeaders({ A: '${{ env.lg_webhook_token }}' }));
    expect(errors(r)[0]?.message).toContain('Rename the variable to LG_WEBHOOK_token');
  });

  it('accepts any variable with an empty prefix, with a warning', () => {
    const r = check(withWebhooks({ env_prefix: '', headers: { A: '${{ env.ANYTHING }}' } }));
    expect(errors(r)).toEqual([]);
    expect(keys(warnings(r))).toEqual(['webhooks.env_prefix']);
    expect(r.parsed?.envReferences.map((e) => e.variable)).toEqual(['ANYTHING']);
  });

  it('rejects an env_prefix that is not a string (with headers; warns without)', () => {
    expect(keys(errors(check(withWebhooks({ env_prefix: null, headers: { A: 'x' } }))))).toEqual([
      'webhooks.env_prefix',
    ]);
    expect(keys(errors(check(withWebhooks({ env_prefix: 5, headers: { A: 'x' } }))))).toEqual([
      'webhooks.env_prefix',
    ]);
    const unused = check(withWebhooks({ env_prefix: null }));
    expect(errors(unused)).toEqual([]);
    expect(keys(warnings(unused))).toEqual(['webhooks.env_prefix']);
  });
});

describe('webhooks.headers: templates', () => {
  it.each([
    ['${{ env.LG_WEBHOOK_X }', 'not closed'],
    ['${{ secrets.LG_WEBHOOK_X }}', 'can only read environment variables'],
    ['${{ env. }}', 'variable name is missing'],
    ['${{ env.LG_WEBHOOK.X }}', 'is not valid'],
    ['${{ env.LG_WEBHOOK X }}', 'is not valid'],
    ['${{ LG_WEBHOOK_X }}', 'can only read environment variables'],
  ])('rejects the malformed template %s', (value, expected) => {
    const r = check(withHeaders({ 'X-Key': value }));
    expect(keys(errors(r))).toEqual(['webhooks.headers.X-Key']);
    expect(errors(r)[0]?.message).toContain(expected);
    expect(errors(r)[0]?.line).toBe(10);
  });

  it('suggests the env form for a secrets.X reference', () => {
    const r = check(withHeaders({ 'X-Key': '${{ secrets.TOKEN }}' }));
    expect(errors(r)[0]?.message).toContain(
      'as LG_WEBHOOK_TOKEN and write ${{ env.LG_WEBHOOK_TOKEN }}',
    );
  });

  it('warns about a single-brace look-alike that would be sent literally', () => {
    expect(keys(warnings(check(withHeaders({ 'X-Id': '${env.LG_WEBHOOK_ID}' }))))).toEqual([
      'webhooks.headers.X-Id',
    ]);
    expect(keys(warnings(check(withHeaders({ 'X-Id': '{{ env.LG_WEBHOOK_ID }}' }))))).toEqual([
      'webhooks.headers.X-Id',
    ]);
    expect(check(withHeaders({ 'X-Id': 'price is $5 {ok}' })).findings).toEqual([]);
  });

  it('rejects non-string values and non-object headers', () => {
    expect(keys(errors(check(withHeaders({ 'X-Retries': 3 }))))).toEqual([
      'webhooks.headers.X-Retries',
    ]);
    expect(keys(errors(check(withWebhooks({ headers: ['A: b'] }))))).toEqual(['webhooks.headers']);
    expect(keys(errors(check(withWebhooks('https://hooks.example.com'))))).toEqual(['webhooks']);
  });

  it('warns about an invalid header name', () => {
    expect(keys(warnings(check(withHeaders({ 'X Key': 'v' }))))).toEqual([
      'webhooks.headers.X Key',
    ]);
  });

  it('warns about a literal that looks like a secret, without repeating it', () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    for (const headers of [
      { 'X-Custom': token },
      { Authorization: 'Basic dXNlcjpwYXNzd29yZA==' },
    ]) {
      const r = check(withHeaders(headers));
      expect(errors(r)).toEqual([]);
      expect(warnings(r)).toHaveLength(1);
      expect(warnings(r)[0]?.message).toContain('looks like a secret');
      expect(JSON.stringify(r.findings)).not.toContain(Object.values(headers)[0]);
    }
    const suggestion = warnings(check(withHeaders({ 'X-Api-Key': 'abcd1234efgh' })))[0]?.message;
    expect(suggestion).toContain('${{ env.LG_WEBHOOK_X_API_KEY }}');
    expect(
      check(
        withHeaders({ 'Content-Type': 'application/json', 'X-Source': 'langgraph-deploy-action' }),
      ).findings,
    ).toEqual([]);
  });

  it('warns about unknown keys of webhooks', () => {
    expect(keys(warnings(check(withWebhooks({ header: {} }))))).toEqual(['webhooks.header']);
  });
});

describe('variables in the deployment environment', () => {
  const config = withHeaders({
    'X-Key': '${{ env.LG_WEBHOOK_TOKEN }}',
    'X-Other': '${{ env.LG_WEBHOOK_OTHER }}',
  });

  it('reports a referenced variable missing from the secrets input', () => {
    const r = check(config, { secretNames: ['LG_WEBHOOK_OTHER', 'OPENAI_API_KEY'] });
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({
      key: 'webhooks.headers.X-Key',
      file: 'langgraph.json',
      line: 10,
      column: 17,
    });
    expect(errors(r)[0]?.message).toBe(
      "webhooks.headers.X-Key references env.LG_WEBHOOK_TOKEN, which is not in the deployment's environment: add LG_WEBHOOK_TOKEN to the action's secrets input — the agent server will not start without it.",
    );
  });

  it('passes when every variable is in the secrets input or in the config env', () => {
    expect(
      check(config, { secretNames: ['LG_WEBHOOK_TOKEN', 'LG_WEBHOOK_OTHER'] }).findings,
    ).toEqual([]);
    expect(
      check({ ...config, env: { LG_WEBHOOK_OTHER: 'x' } }, { secretNames: ['LG_WEBHOOK_TOKEN'] })
        .findings,
    ).toEqual([]);
  });

  it('leaves the check to the caller when the secrets input is empty on an update', () => {
    const r = check(config);
    expect(r.findings).toEqual([]);
    expect(r.parsed?.envReferences.map((e) => e.variable)).toEqual([
      'LG_WEBHOOK_TOKEN',
      'LG_WEBHOOK_OTHER',
    ]);
  });

  it('checks after the lookup against the deployment secrets, with advice for that case', () => {
    const parsed = check(config).parsed as ParsedLangGraphConfig;
    expect(
      checkEnvReferences(parsed, ['LG_WEBHOOK_TOKEN', 'LG_WEBHOOK_OTHER'], {
        source: 'deployment',
      }),
    ).toEqual([]);
    const findings = checkEnvReferences(parsed, ['LG_WEBHOOK_OTHER'], { source: 'deployment' });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', key: 'webhooks.headers.X-Key', line: 10 });
    expect(findings[0]?.message).toContain('not among the secrets of the deployment');
    expect(findings[0]?.message).toContain('the agent server will not start without it');
  });

  it('points out a name that differs only in case', () => {
    const findings = checkEnvReferences(check(config).parsed as ParsedLangGraphConfig, [
      'lg_webhook_token',
      'LG_WEBHOOK_OTHER',
    ]);
    expect(findings[0]?.message).toContain('lg_webhook_token is set, but names are case-sensitive');
  });

  it('reports a variable used twice in one header once', () => {
    const parsed = check(withHeaders({ A: '${{ env.LG_WEBHOOK_T }}${{ env.LG_WEBHOOK_T }}' }))
      .parsed as ParsedLangGraphConfig;
    expect(checkEnvReferences(parsed, [])).toHaveLength(1);
  });
});

describe('webhooks.url', () => {
  it('accepts a complete, valid policy', () => {
    const url = {
      allowed_domains: ['hooks.example.com', '*.example.org', 'my_host.internal'],
      require_https: true,
      allowed_ports: [443, 8443],
      disable_loopback: false,
      disable_private_ips: true,
      max_url_length: 2048,
    };
    expect(check(withWebhooks({ url })).findings).toEqual([]);
  });

  it('rejects domains that are not host names or misuse the wildcard', () => {
    const url = {
      allowed_domains: [
        'https://hooks.example.com',
        'a.*.example.com',
        'example.com:443',
        'example.com/path',
        '',
        7,
        'bad..host',
      ],
    };
    const r = check(withWebhooks({ url }));
    expect(keys(errors(r))).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => `webhooks.url.allowed_domains[${i}]`),
    );
    expect(errors(r)[0]?.message).toContain('Remove the scheme');
    expect(errors(r)[1]?.message).toContain('only allowed as a prefix');
    expect(errors(r)[2]?.message).toContain('ports go to allowed_ports');
    expect(keys(errors(check(withWebhooks({ url: { allowed_domains: 'example.com' } }))))).toEqual([
      'webhooks.url.allowed_domains',
    ]);
  });

  it.each([
    ['require_https', 'yes'],
    ['require_https', 'true'],
    ['require_https', 1],
    ['disable_loopback', 2],
    ['disable_loopback', 'false'],
    ['disable_private_ips', 'no'],
    ['disable_loopback', ['x']],
  ])('fails %s given %j: it must be a boolean', (key, value) => {
    const r = check(withWebhooks({ url: { [key]: value } }));
    expect(keys(errors(r))).toEqual([`webhooks.url.${key}`]);
    expect(errors(r)[0]?.message).toContain(`webhooks.url.${key} is`);
    expect(errors(r)[0]?.message).toContain('must be a boolean');
  });

  it.each([
    ['allowed_ports', 443, 'an array'],
    ['allowed_ports', '443', 'an array'],
    ['allowed_domains', 'example.com', 'an array'],
    ['allowed_domains', 7, 'an array'],
    ['allowed_domains', { a: 1 }, 'an array'],
  ])('fails %s given %j: it must be %s', (key, value, expected) => {
    const r = check(withWebhooks({ url: { [key]: value } }));
    expect(keys(errors(r))).toEqual([`webhooks.url.${key}`]);
    expect(errors(r)[0]?.message).toContain(`must be ${expected}`);
  });

  it('requires integer ports from 1 to 65535', () => {
    const r = check(
      withWebhooks({ url: { allowed_ports: [0, 65536, 44.5, 'https', '8443', -1, 443, 65535] } }),
    );
    expect(keys(errors(r))).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `webhooks.url.allowed_ports[${i}]`),
    );
    expect(errors(r)[4]?.message).toContain('Write the number 8443, without quotes');
    expect(warnings(r)).toEqual([]);
  });

  it('requires an integer max_url_length of at least 1', () => {
    for (const bad of [0, -5, 10.5, 'long', '2048', true, null]) {
      const r = check(withWebhooks({ url: { max_url_length: bad } }));
      expect(keys(errors(r))).toEqual(['webhooks.url.max_url_length']);
      expect(errors(r)[0]?.message).toContain('must be an integer of at least 1');
    }
    expect(check(withWebhooks({ url: { max_url_length: 1 } })).findings).toEqual([]);
  });

  it('puts each finding on the line of its key', () => {
    const text = [
      '{',
      '  "graphs": {"agent": "./src/agent.py:graph"},',
      '  "dependencies": ["."],',
      '  "webhooks": {',
      '    "url": {',
      '      "require_https": "yes",',
      '      "max_url_length": -1',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const r = check(text);
    expect(errors(r).map((f) => [f.key, f.line])).toEqual([
      ['webhooks.url.require_https', 6],
      ['webhooks.url.max_url_length', 7],
    ]);
  });

  it('rejects a url policy that is not an object, and warns about unknown keys', () => {
    expect(keys(errors(check(withWebhooks({ url: 'https://hooks.example.com' }))))).toEqual([
      'webhooks.url',
    ]);
    expect(keys(warnings(check(withWebhooks({ url: { require_http: true } }))))).toEqual([
      'webhooks.url.require_http',
    ]);
  });
});

describe('webhooks.allowed_fields and http.disable_webhooks', () => {
  it('accepts known payload fields only', () => {
    expect(
      check(withWebhooks({ allowed_fields: ['run_id', 'status', 'values'] })).findings,
    ).toEqual([]);
    const r = check(withWebhooks({ allowed_fields: ['run_id', 'output', 3] }));
    expect(keys(errors(r))).toEqual(['webhooks.allowed_fields[1]', 'webhooks.allowed_fields[2]']);
  });

  it('requires http.disable_webhooks to be a boolean', () => {
    expect(check({ ...VALID, http: { disable_webhooks: true } }).findings).toEqual([]);
    const r = check({ ...VALID, http: { disable_webhooks: 'disabled' } });
    expect(keys(errors(r))).toEqual(['http.disable_webhooks']);
    expect(errors(r)[0]?.message).toContain('must be a boolean. Write true or false');
    expect(keys(errors(check({ ...VALID, http: { disable_webhooks: 'true' } })))).toEqual([
      'http.disable_webhooks',
    ]);
    expect(keys(errors(check({ ...VALID, http: true })))).toEqual(['http']);
  });
});
