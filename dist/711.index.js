export const id = 711;
export const ids = [711];
export const modules = {

/***/ 6711:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   loadTestsFile: () => (/* binding */ loadTestsFile)
/* harmony export */ });
/* unused harmony exports patternProblem, parseTestsFile */
/* harmony import */ var _lib_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9112);
/* harmony import */ var _lib_paths_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2308);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8815);
/* harmony import */ var re2js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2856);
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3339);
/**
 * The conversation tests file (`tests` input): read from the checkout, parsed (YAML, and so
 * JSON too, with the `yaml` package) and validated as an input, before any request, against
 * one `zod` schema. Every problem names the file, the case and the key, and all of them are
 * reported at once. Loaded (with the YAML parser) only when `tests` is set.
 */





/**
 * The most instructions of a compiled expression (`(.*){1,32}[bc]` has 162). `matches` runs in
 * time linear in the text (`verify/conversation-tests.ts`), but that time still scales with the
 * compiled program (`(.*){1,1000}[bc]`, 5,002 instructions: about 10 s on 64 KiB), so that is
 * bounded too (300: about 0.3 s at worst on a shared 2-core runner). A refused expression is an
 * input error before any request.
 */
const MAX_PROGRAM = 300;
/** Why `source` is not an RE2 expression the checks can run, or undefined when it is. */
function patternProblem(source) {
    let pattern;
    try {
        pattern = re2js__WEBPACK_IMPORTED_MODULE_3__/* .RE2JS */ .L3.compile(source);
    }
    catch (error) {
        return error.message.replace(/^error parsing regexp: /, '');
    }
    // The number of instructions of the compiled program: re2js 2.x internals (its version is
    // pinned, and `__tests__/verify/conversation-tests.test.ts` fails when they move).
    const program = pattern.re2Input;
    const size = program.prog.inst.length;
    return size > MAX_PROGRAM
        ? `it compiles to ${size} instructions, more than the ${MAX_PROGRAM} that keep ` +
            'a check within a fraction of a second (use smaller repeat counts such as `{1,30}`)'
        : undefined;
}
/** Bounds that keep one run of the file finite. */
const MAX_CASES = 200;
const MAX_TURNS = 50;
const MAX_CHECKPOINTS = 1000;
const MAX_FILE_BYTES = 1024 * 1024;
function kind(v) {
    if (v === null || v === undefined)
        return 'empty';
    if (Array.isArray(v))
        return 'a list';
    if (typeof v === 'object')
        return 'a mapping';
    return `a ${typeof v}`;
}
/**
 * What is wrong with a value that must be a non-empty list: missing, an empty list (which is a
 * list: say it is empty), or something else.
 */
function notAList(value, one, detail = '') {
    const list = `a non-empty list of ${one}s${detail}`;
    if (value === undefined)
        return `is required: ${list}.`;
    if (Array.isArray(value))
        return `is an empty list: give at least one ${one}${detail}.`;
    return `must be ${list}, not ${kind(value)}.`;
}
/** A mapping (not a list, not null); anything else gets `message`. */
const mapping = (message) => zod__WEBPACK_IMPORTED_MODULE_4__/* .custom */ .IeY(_lib_text_js__WEBPACK_IMPORTED_MODULE_0__/* .isRecord */ .u4, { error: (iss) => message(iss.input) });
/**
 * A mapping with known keys only: an unknown key is a problem of its own (one sentence per key,
 * by `sentences`, with the keys allowed here); anything but a mapping gets `message`.
 */
function strict(shape, message) {
    const known = Object.keys(shape).map((k) => `\`${k}\``);
    return zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej(shape, {
        error: (iss) => iss.code === 'unrecognized_keys'
            ? `the keys here are ${known.join(', ')}.`
            : message(iss.input),
    });
}
const UpdateSchema = strict({
    values: zod__WEBPACK_IMPORTED_MODULE_4__/* .unknown */ .L5J().default(null),
    as_node: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP('is required: `__start__` or a node of the graph (the agent server drops an ' +
        '`__input__` update when the next run brings its own input).')
        .min(1),
    command: mapping((v) => `must be a mapping, not ${kind(v)}.`).optional(),
}, (v) => `must be a mapping with \`values\` and \`as_node\`, not ${kind(v)}.`).transform(({ as_node: asNode, ...rest }) => ({ ...rest, asNode }));
const SuperstepSchema = strict({ updates: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(UpdateSchema, 'must be a non-empty list of updates.').min(1) }, (v) => `must be a mapping with \`updates\`, not ${kind(v)}.`);
const ExpectSchema = strict({
    contains: zod__WEBPACK_IMPORTED_MODULE_4__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig(), zod__WEBPACK_IMPORTED_MODULE_4__/* .boolean */ .zMY()], 'must be a non-empty string.')
        .transform(String)
        .pipe(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1, 'must be a non-empty string.'))
        .optional(),
    matches: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP('must be a regular expression (a string).')
        .min(1)
        .refine((source) => patternProblem(source) === undefined, {
        error: (iss) => 'is not a regular expression in RE2 syntax (the linear-time engine the checks use; no ' +
            `lookarounds or back-references): ${patternProblem(iss.input)}.`,
    })
        .optional(),
    values: mapping((v) => `must be a mapping (a partial match of the thread's state values), not ${kind(v)}.`).optional(),
}, () => 'must be a mapping (`contains`, `matches`, `values`).');
const TurnSchema = strict({
    input: mapping(() => 'is required: the run input, a mapping such as `{messages: [{role: user, content: Hi}]}`.'),
    expect: ExpectSchema.nullish().transform((v) => v ?? undefined),
}, (v) => `must be a mapping with \`input\`, not ${kind(v)}.`);
const wholeCount = `must be a whole number from 0 to ${MAX_CHECKPOINTS} (the least number of ` +
    'checkpoints in the thread history after the last turn).';
const CaseSchema = strict({
    name: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP('is required: a non-empty string.').trim().min(1),
    assistant: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP('must be a graph ID or assistant ID (a string).').trim().min(1).optional(),
    state: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(SuperstepSchema, 'must be a non-empty list of supersteps (each with `updates`).')
        .min(1)
        .optional(),
    turns: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(TurnSchema, { error: (iss) => notAList(iss.input, 'turn', ' (each with an `input`)') })
        .min(1)
        .max(MAX_TURNS, {
        error: (iss) => `has ${iss.input.length} turns; at most ${MAX_TURNS}.`,
    }),
    checkpoints: zod__WEBPACK_IMPORTED_MODULE_4__/* .int */ .Whr(wholeCount).min(0, wholeCount).max(MAX_CHECKPOINTS, wholeCount).optional(),
}, (v) => `must be a mapping (with \`name\` and \`turns\`), not ${kind(v)}.`);
const FileSchema = strict({
    cases: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(CaseSchema, { error: (iss) => notAList(iss.input, 'case') })
        .min(1)
        .max(MAX_CASES, {
        error: (iss) => `has ${iss.input.length} cases; at most ${MAX_CASES} are allowed.`,
    }),
}, (v) => `the file must be a mapping with a \`cases\` list, not ${kind(v)}.`);
/**
 * Reads `path` (relative to the checkout `workspace`, which it must not leave) and validates
 * it. Problems are whole sentences that start with the file's name.
 */
function loadTestsFile(workspace, path) {
    const read = (0,_lib_paths_js__WEBPACK_IMPORTED_MODULE_1__/* .readInsideWorkspace */ .yJ)(workspace, path, MAX_FILE_BYTES);
    if (read.ok)
        return parseTestsFile(read.text, path);
    // Nothing of what the path points at is shown: only why it cannot be the tests file.
    const why = read.refusal === 'too-large'
        ? `is larger than ${MAX_FILE_BYTES} bytes (1 MiB), the most that is read`
        : (0,_lib_paths_js__WEBPACK_IMPORTED_MODULE_1__/* .refusalText */ .Kw)(read.refusal, read.code);
    const advice = read.refusal === 'missing'
        ? ': check it, and that an `actions/checkout` step runs before this one.'
        : read.refusal === 'too-large'
            ? '. Split it, or keep only the cases this deployment needs.'
            : '. Give the path of a regular file inside the repository, e.g. ' +
                '`tests: .github/agent-tests.yaml`.';
    return {
        ok: false,
        problems: [
            `Input \`tests\` is "${path}", which ${why}. The path is relative to the checkout ` +
                `(GITHUB_WORKSPACE)${advice}`,
        ],
    };
}
/** Parses and validates the text of a tests file; `file` names it in every problem. */
function parseTestsFile(text, file) {
    const lines = new yaml__WEBPACK_IMPORTED_MODULE_2__/* .LineCounter */ .HN();
    const doc = (0,yaml__WEBPACK_IMPORTED_MODULE_2__/* .parseDocument */ .Tp)(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
    if (doc.errors.length > 0) {
        return {
            ok: false,
            problems: doc.errors.slice(0, 5).map((e) => {
                const at = lines.linePos(e.pos[0]);
                const where = at ? ` at line ${at.line}, column ${at.col}` : '';
                const message = (e.message.split('\n')[0] ?? '').replace(/[.:]\s*$/, '');
                return `Tests file ${file}: not valid YAML or JSON${where}: ${message}.`;
            }),
        };
    }
    const value = doc.toJS({ maxAliasCount: 100 });
    const parsed = FileSchema.safeParse(value);
    const found = [...(parsed.success ? [] : parsed.error.issues), ...duplicateNames(value)];
    if (parsed.success && found.length === 0) {
        return { ok: true, cases: parsed.data.cases };
    }
    const issues = found.sort((a, b) => compareKeys(order(a), order(b)));
    return { ok: false, problems: issues.flatMap((i) => sentences(i, value, file)) };
}
/**
 * A case name given twice. Checked on the file as written, beside the schema: zod skips an
 * array's refinements once one of its items failed, and this must be said either way.
 */
function duplicateNames(value) {
    const cases = (0,_lib_text_js__WEBPACK_IMPORTED_MODULE_0__/* .isRecord */ .u4)(value) ? value['cases'] : undefined;
    if (!Array.isArray(cases) || cases.length > MAX_CASES)
        return [];
    const names = cases.map(nameOf);
    return names.flatMap((name, index) => {
        const first = names.indexOf(name);
        if (name === '' || first === index)
            return [];
        const message = `is not unique: case #${first + 1} has the same name.`;
        return [{ code: 'custom', path: ['cases', index, 'name'], message, input: name }];
    });
}
/** A case's name as written (trimmed), or '' when it has none. */
function nameOf(item) {
    const name = (0,_lib_text_js__WEBPACK_IMPORTED_MODULE_0__/* .isRecord */ .u4)(item) ? item['name'] : undefined;
    return typeof name === 'string' ? name.trim() : '';
}
function order(issue) {
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, ''] : issue.path;
    return path.map((key) => (typeof key === 'number' ? key : KEY_ORDER.indexOf(String(key))));
}
function compareKeys(a, b) {
    const i = a.findIndex((key, j) => key !== b[j]);
    return i === -1 || i >= b.length ? a.length - b.length : a[i] - b[i];
}
/**
 * The order problems are told in, as a reader goes through the file: case by case, and in
 * each mapping its `name` first, then its unknown keys (`''` below), then its keys in the order
 * the format lists them.
 */
const KEY_ORDER = [
    'name',
    '',
    ...new Set([FileSchema, CaseSchema, TurnSchema, ExpectSchema, SuperstepSchema, UpdateSchema.in].flatMap((schema) => Object.keys(schema.shape))),
];
/** The lists of the format, and how an item of each is named. */
const LISTS = new Map([
    ['cases', (n) => `case #${n}`],
    ['turns', (n) => `turn ${n}`],
    ['state', (n) => `key \`state\`, superstep ${n}`],
    ['updates', (n) => `update ${n}`],
]);
/**
 * Where a problem is, in the file's words: `case "name"` (or `case #3` while the case has no
 * valid name), `turn 1`, `key \`state\`, superstep 1`, `update 2`, `key \`expect.matches\``.
 */
function locate(path, value) {
    const where = [];
    for (let i = 0; i < path.length; i++) {
        const key = path[i];
        const next = path[i + 1];
        const itemName = LISTS.get(key);
        if (typeof next === 'number' && itemName) {
            // `cases` is the file's own list (an issue in it means it is one).
            const name = key === 'cases' ? nameOf(value.cases[next]) : '';
            where.push(name ? `case "${name}"` : itemName(next + 1));
            i++;
        }
        else if (key === 'expect' && next !== undefined) {
            where.push(`key \`expect.${String(next)}\``);
            i++;
        }
        else
            where.push(`key \`${String(key)}\``);
    }
    return where;
}
/** An issue as sentences (one per unknown key) that start with the file's name. */
function sentences(issue, value, file) {
    const where = locate(issue.path, value);
    // A name given twice: which of the cases of that name this is.
    if (issue.code === 'custom' && issue.path.length === 3 && issue.path[2] === 'name') {
        where[0] += ` (#${Number(issue.path[1]) + 1})`;
    }
    const prefix = `Tests file ${file}${where.length > 0 ? `, ${where.join(', ')}` : ''}: `;
    if (issue.code !== 'unrecognized_keys')
        return [prefix + issue.message];
    return issue.keys.map((key) => `${prefix}unknown key \`${key}\`; ${issue.message}`);
}


/***/ })

};
