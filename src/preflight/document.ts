/**
 * What every rule shares: the config file as a positioned JSON tree (jsonc-parser in
 * strict-JSON mode), and the `Checker` every rule reports through (it turns a node into the
 * 1-based line and column of an annotation) and resolves the paths the config refers to,
 * against its folder and inside the workspace.
 */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { isInside } from '../lib/paths.js';
import { editDistance } from '../inputs/spec.js';

export type { Node } from 'jsonc-parser';

/** One problem (or doubt) found before any request. The caller turns it into an annotation. */
export interface Finding {
  level: 'error' | 'warning' | 'notice';
  message: string;
  /** The config key concerned, e.g. `webhooks.headers.Authorization`; `image-uri` for the image. */
  key?: string;
  /** Workspace-relative path (forward slashes) of the file the finding is about. */
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based, in UTF-16 code units. */
  column?: number;
}

/** One `${{ env.VAR }}` reference of a webhook header that the agent server will resolve at start. */
export interface EnvReference extends Required<Pick<Finding, 'key' | 'line' | 'column'>> {
  variable: string;
}

export interface ParsedLangGraphConfig {
  /** Workspace-relative path (forward slashes). */
  file: string;
  json: unknown;
  /**
   * The references the agent server will look up at start: well-formed and within
   * `webhooks.env_prefix` (the others are already reported as errors).
   */
  envReferences: EnvReference[];
  /**
   * Variables the config itself provides: the keys of `env` when it is a mapping, or the
   * names in the `.env` file `env` points to when that file is in the workspace.
   */
  configEnvNames: string[];
}

const PARSE_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "':' was expected",
  CommaExpected: "',' was expected",
  CloseBraceExpected: "'}' was expected",
  CloseBracketExpected: "']' was expected",
  EndOfFileExpected: 'the end of the file was expected (only one top-level value is allowed)',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment (comments are not allowed in JSON)',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'control character in a string (write it escaped, e.g. \\n)',
};

function describe(text: string, error: ParseError): { problem: string; offset: number } {
  const name = printParseErrorCode(error.error);
  if (text.trim() === '') return { problem: 'the file is empty', offset: 0 };
  if (name === 'PropertyNameExpected' || name === 'ValueExpected') {
    // `{"a": 1,}`: jsonc-parser reports the closing bracket; point at the comma instead.
    const next = text[error.offset];
    let i = error.offset - 1;
    while (i >= 0 && /\s/.test(text[i] ?? '')) i--;
    if (text[i] === ',' && (next === '}' || next === ']'))
      return { problem: 'trailing comma (not allowed in JSON): remove it', offset: i };
  }
  if (name === 'InvalidSymbol' && text[error.offset] === "'")
    return { problem: 'strings and names must use double quotes', offset: error.offset };
  return { problem: PARSE_ERROR_TEXT[name] ?? name, offset: error.offset };
}

type Report = (key: string | undefined, node: Node | number | undefined, message: string) => void;

/** More syntax errors than this in one file are summed up in one line. */
const MAX_SYNTAX_PROBLEMS = 20;

/**
 * One config file: its JSON tree, and the findings about it, from the first (a byte order mark,
 * the syntax errors) to those of the rules, which report through it.
 */
export class Checker {
  readonly findings: Finding[] = [];
  /** The text parsed: a byte order mark is a space, so every offset (line, column) stays. */
  readonly text: string;
  /** The JSON tree; undefined unless the text is a valid JSON object (the findings say why). */
  readonly root: Node | undefined;
  /** Start offset of every line, for offset → line/column. */
  private readonly starts: number[];
  /** "paths are relative to the folder of apps/agent/langgraph.json" (or the repository root). */
  readonly relativeToHint: string;

  constructor(
    text: string,
    /** Absolute path of the checkout. */
    readonly workspace: string,
    /** Workspace-relative path of the config file, forward slashes. */
    readonly file: string,
  ) {
    this.relativeToHint = file.includes('/')
      ? `paths are relative to the folder of ${file}`
      : 'paths are relative to the repository root, where the config is';
    const bom = text.startsWith('\ufeff');
    this.text = bom ? ` ${text.slice(1)}` : text;
    this.starts = [0, ...[...this.text.matchAll(/\r\n?|\n/g)].map((m) => m.index + m[0].length)];
    const bomError = `${file} starts with a UTF-8 byte order mark, which the langgraph CLI's JSON reader rejects: save the file as UTF-8 without BOM.`;
    if (bom) this.error(undefined, 0, bomError);
    const errors: ParseError[] = [];
    const root = parseTree(this.text, errors, { disallowComments: true }); // defaults: no trailing comma, no empty file
    this.root = errors.length === 0 && root?.type === 'object' ? root : undefined;
    const must = `${file} must hold a JSON object ({"graphs": {...}, ...}), not ${root?.type}.`;
    if (errors.length === 0 && root?.type !== 'object') this.error(undefined, root, must);
    // One error per line, in order: the parser goes on after an error, and what follows on the
    // same line is mostly its echo.
    const lines = new Set<number>();
    for (const error of errors) {
      const { problem, offset } = describe(this.text, error);
      const { line, column } = this.position(offset);
      if (lines.has(line) || lines.add(line).size > MAX_SYNTAX_PROBLEMS) continue;
      const message = `${file} is not valid JSON: ${problem} (line ${line}, column ${column}). The platform cannot read the config: fix it (JSON allows no comments and no trailing commas).`;
      this.findings.push({ level: 'error', file, line, column, message });
    }
    const more = lines.size - MAX_SYNTAX_PROBLEMS;
    if (more > 0)
      this.error(undefined, undefined, `${file} has ${more} more syntax errors on later lines.`);
  }

  position(offset: number): { line: number; column: number } {
    const line = this.starts.findLastIndex((start) => start <= offset);
    return { line: line + 1, column: offset - this.starts[line]! + 1 };
  }

  /** Resolves a path written in the config (relative to its folder): what is there, or why not. */
  resolve(written: string) {
    const absolute = resolve(this.workspace, this.file, '..', written); // from the config's folder
    const relative = workspaceRelative(this.workspace, absolute);
    const inside = isInside(this.workspace, absolute);
    const kind = isAbsolute(written) ? 'absolute' : inside ? pathKind(absolute) : 'outside';
    return { absolute, relative, kind };
  }

  readonly error: Report = (key, node, message) => this.add('error', key, node, message);
  readonly warning: Report = (key, node, message) => this.add('warning', key, node, message);

  /** "`key` is <the JSON type of `node`>: `must`": a value of the wrong type. */
  mistyped(key: string, node: Node, must: string, level: 'error' | 'warning' = 'error'): undefined {
    this.add(level, key, node, `${key} is ${typeName(node)}: ${must}`);
    return undefined;
  }

  /** Warns about each key of the object `node` that is not `known` (`path` '' is the top level). */
  unknownKeys(path: string, node: Node | undefined, known: readonly string[]): void {
    const where = path ? `${path} has an unknown key` : `${this.file} has an unknown top-level key`;
    for (const { key, keyNode } of properties(node)) {
      if (known.includes(key)) continue;
      const near = known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2);
      const hint = near ? `Did you mean "${near}"?` : `Known keys: ${known.join(', ')}.`;
      const message = `${where} "${key}", which the platform ignores. ${hint}`;
      this.warning(path ? `${path}.${key}` : key, keyNode, message);
    }
  }

  private add(level: Finding['level'], ...[key, node, message]: Parameters<Report>): void {
    const offset = typeof node === 'number' ? node : node?.offset;
    this.findings.push({
      level,
      message,
      file: this.file,
      ...(key !== undefined && { key }),
      ...(offset !== undefined && this.position(offset)),
    });
  }
}

/** Properties of an object node, in document order. */
export function properties(node: Node | undefined): { key: string; keyNode: Node; value: Node }[] {
  if (node?.type !== 'object') return [];
  return (node.children ?? []).flatMap(({ children: [keyNode, value] = [] }) =>
    keyNode && value ? [{ key: String(keyNode.value), keyNode, value }] : [],
  );
}

/** The value of `key` in an object node; the last one wins on duplicates, as in Python's json. */
export function child(node: Node | undefined, key: string): Node | undefined {
  return properties(node).findLast((p) => p.key === key)?.value;
}

/** A JSON type name for messages. */
export function typeName(node: Node): string {
  if (node.type === 'number') return Number.isInteger(node.value) ? 'an integer' : 'a number';
  if (node.type === 'null') return 'null';
  return `${/^[ao]/.test(node.type) ? 'an' : 'a'} ${node.type}`; // an object, an array, a string…
}

/** Workspace-relative form with forward slashes (`.` for the workspace itself). */
export function workspaceRelative(workspace: string, target: string): string {
  const rel = relative(workspace, target);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

function pathKind(target: string): 'file' | 'directory' | 'missing' {
  try {
    return statSync(target).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}
