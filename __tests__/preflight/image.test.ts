import { describe, expect, it } from '@jest/globals';
import { checkImageUri } from '../../src/preflight/index.js';

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('checkImageUri', () => {
  it.each([
    'ghcr.io/my-org/my-agent:1.2.0',
    `ghcr.io/my-org/my-agent@${DIGEST}`,
    `registry.example.com:5000/team/agent:v1_2.3-rc1@${DIGEST}`,
    'localhost:5000/agent:dev',
    'docker.io/library/python:3.12-slim',
    '123456789012.dkr.ecr.us-east-1.amazonaws.com/agent:sha-abc123',
    'my-agent:latest',
    'org/my__agent.v2:1',
    '[::1]:5000/agent:1',
  ])('accepts %s', (uri) => {
    expect(checkImageUri(uri)).toEqual([]);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['ghcr.io/org/agent:1.0 ', 'whitespace'],
    ['https://ghcr.io/org/agent:1.0', 'URL scheme'],
    ['docker://agent:1', 'URL scheme'],
    ['ghcr.io/Org/Agent:1.0', 'must be lowercase'],
    ['ghcr.io/org/agent:', 'invalid tag ""'],
    ['ghcr.io/org/agent:-dev', 'invalid tag "-dev"'],
    [`ghcr.io/org/agent:${'a'.repeat(129)}`, 'invalid tag'],
    ['ghcr.io/org/agent@sha256:1234', 'invalid digest'],
    ['ghcr.io/org/agent@latest', 'invalid digest'],
    [`ghcr.io/org/agent@sha256:${'A'.repeat(64)}`, 'invalid digest'],
    ['ghcr.io/org/-agent:1', 'invalid repository name part "-agent"'],
    ['ghcr.io//agent:1', 'invalid repository name part ""'],
    ['bad_host.io/agent:1', 'invalid registry'],
    ['a:b:c', 'invalid repository name part'],
    [`${'a'.repeat(256)}:1`, 'longer than 255'],
  ])('rejects %j', (uri, expected) => {
    const findings = checkImageUri(uri);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', key: 'image-uri' });
    expect(findings[0]?.message).toContain(expected);
    expect(findings[0]?.message.startsWith('image-uri')).toBe(true);
  });

  it('warns that a reference without tag or digest pulls latest', () => {
    for (const uri of ['my-agent', 'ghcr.io/org/agent', 'localhost:5000/agent']) {
      const findings = checkImageUri(uri);
      expect(findings).toEqual([
        {
          level: 'warning',
          key: 'image-uri',
          message: expect.stringContaining('"latest" tag is pulled'),
        },
      ]);
      expect(findings[0]?.message).toContain(`${uri}:1.2.0`);
    }
  });
});
