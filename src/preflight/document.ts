/**
 * The config file as a positioned JSON tree (jsonc-parser in strict-JSON mode), and the
 * `Checker` every rule reports through: it turns a node into the 1-based line and column of
 * an annotation.
 */
import { getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import type { Finding } from './finding.js';

export type { Node } from 'jsonc-parser';

/** Start offset of every line, for offset → line/column. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

export function positionAt(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
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

export interface SyntaxProblem {
  message: string;
  line: number;
  column: number;
}

function describe(text: string, error: ParseError): { message: string; offset: number } {
  const name = printParseErrorCode(error.error);
  if (text.trim() === '') return { message: 'the file is empty', offset: 0 };
  if (name === 'PropertyNameExpected' || name === 'ValueExpected') {
    // `{"a": 1,}`: jsonc-parser reports the closing bracket; point at the comma instead.
    const next = text[error.offset];
    let i = error.offset - 1;
    while (i >= 0 && /\s/.test(text[i] ?? '')) i--;
    if (text[i] === ',' && (next === '}' || next === ']')) {
      return { message: 'trailing comma (not allowed in JSON): remove it', offset: i };
    }
  }
  if (name === 'InvalidSymbol' && text[error.offset] === "'") {
    return { message: 'strings and names must use double quotes', offset: error.offset };
  }
  return { message: PARSE_ERROR_TEXT[name] ?? name, offset: error.offset };
}

/** More syntax errors than this in one file are summed up in one line. */
export const MAX_SYNTAX_PROBLEMS = 20;

export class JsonDocument {
  readonly root: Node | undefined;
  readonly value: unknown;
  /**
   * Every syntax error of the file, in order, one per line (the parser goes on after an error,
   * and what follows on the same line is mostly its echo); empty when the JSON is valid.
   */
  readonly syntax: SyntaxProblem[] = [];
  private readonly starts: number[];

  constructor(readonly text: string) {
    this.starts = lineStarts(text);
    const errors: ParseError[] = [];
    this.root = parseTree(text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    for (const error of errors) {
      const { message, offset } = describe(text, error);
      const position = positionAt(this.starts, offset);
      if (this.syntax.some((p) => p.line === position.line)) continue;
      this.syntax.push({ message, ...position });
    }
    this.value = this.root && errors.length === 0 ? getNodeValue(this.root) : undefined;
  }

  position(offset: number): { line: number; column: number } {
    return positionAt(this.starts, offset);
  }
}

/** Properties of an object node, in document order. */
export function properties(node: Node | undefined): { key: string; keyNode: Node; value: Node }[] {
  if (node?.type !== 'object') return [];
  const out: { key: string; keyNode: Node; value: Node }[] = [];
  for (const p of node.children ?? []) {
    const [keyNode, value] = p.children ?? [];
    if (keyNode && value) out.push({ key: String(keyNode.value), keyNode, value });
  }
  return out;
}

/** The value of `key` in an object node; the last one wins on duplicates, as in Python's json. */
export function child(node: Node | undefined, key: string): Node | undefined {
  let found: Node | undefined;
  for (const p of properties(node)) if (p.key === key) found = p.value;
  return found;
}

export function valueOf(node: Node | undefined): unknown {
  return node ? getNodeValue(node) : undefined;
}

/** A JSON type name for messages. */
export function typeName(node: Node): string {
  if (node.type === 'number') return Number.isInteger(node.value) ? 'an integer' : 'a number';
  return {
    object: 'an object',
    array: 'an array',
    string: 'a string',
    boolean: 'a boolean',
    null: 'null',
    property: 'a property',
  }[node.type];
}

/** Collects findings about one config file. */
export class Checker {
  readonly findings: Finding[] = [];
  constructor(
    readonly doc: JsonDocument,
    /** Workspace-relative path, forward slashes. */
    readonly file: string,
  ) {}

  private add(
    level: Finding['level'],
    key: string | undefined,
    node: Node | number | undefined,
    message: string,
  ): void {
    const finding: Finding = { level, message, file: this.file };
    if (key !== undefined) finding.key = key;
    const offset = typeof node === 'number' ? node : node?.offset;
    if (offset !== undefined) Object.assign(finding, this.doc.position(offset));
    this.findings.push(finding);
  }

  error(key: string | undefined, node: Node | number | undefined, message: string): void {
    this.add('error', key, node, message);
  }

  warning(key: string | undefined, node: Node | number | undefined, message: string): void {
    this.add('warning', key, node, message);
  }

  notice(key: string | undefined, node: Node | number | undefined, message: string): void {
    this.add('notice', key, node, message);
  }
}
