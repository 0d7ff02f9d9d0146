export const id = 27;
export const ids = [27];
export const modules = {

/***/ 4027:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   loadTestsFile: () => (/* binding */ loadTestsFile)
/* harmony export */ });
/* unused harmony exports MAX_CASES, MAX_TURNS, MAX_CHECKPOINTS, parseTestsFile */
/* harmony import */ var _lib_paths_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2308);
/* harmony import */ var _pattern_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(91);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8815);
/**
 * The conversation tests file (`tests` input): read from the checkout, parsed (YAML, and so
 * JSON too, with the `yaml` package) and validated as an input, before any request. Every
 * problem names the file, the case and the key, and all of them are reported at once.
 *
 * Loaded lazily by the input stage only when `tests` is set, so a run without tests does not
 * load the YAML parser.
 */



/** Bounds that keep one run of the file finite. */
const MAX_CASES = 200;
const MAX_TURNS = 50;
const MAX_CHECKPOINTS = 1000;
const MAX_FILE_BYTES = 1024 * 1024;
const FILE_KEYS = ['cases'];
const CASE_KEYS = ['name', 'assistant', 'state', 'turns', 'checkpoints'];
const TURN_KEYS = ['input', 'expect'];
const EXPECT_KEYS = ['contains', 'matches', 'values'];
const SUPERSTEP_KEYS = ['updates'];
const UPDATE_KEYS = ['values', 'as_node', 'command'];
/**
 * Reads `path` (relative to the checkout `workspace`, which it must not leave) and validates
 * it. Problems are whole sentences that start with the file's name.
 */
function loadTestsFile(workspace, path) {
    const read = (0,_lib_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .readInsideWorkspace */ .yJ)(workspace, path, MAX_FILE_BYTES);
    if (read.ok)
        return parseTestsFile(read.text, path);
    // Nothing of what the path points at is shown: only why it cannot be the tests file.
    const why = read.refusal === 'too-large'
        ? `is larger than ${MAX_FILE_BYTES} bytes (1 MiB), the most that is read`
        : (0,_lib_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .refusalText */ .Kw)(read.refusal, read.code);
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
                return `Tests file ${file}: not valid YAML or JSON${where}: ${firstLine(e.message)}.`;
            }),
        };
    }
    const value = doc.toJS({ maxAliasCount: 100 });
    const v = new Validator(file);
    const cases = v.file(value);
    if (v.problems.length > 0)
        return { ok: false, problems: v.problems };
    return { ok: true, suite: { file, cases } };
}
function firstLine(text) {
    return (text.split('\n')[0] ?? '').replace(/[.:]\s*$/, '');
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
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
class Validator {
    name;
    problems = [];
    constructor(name) {
        this.name = name;
    }
    problem(where, message) {
        this.problems.push(`Tests file ${this.name}${where ? `, ${where}` : ''}: ${message}`);
    }
    unknownKeys(where, value, known) {
        for (const key of Object.keys(value)) {
            if (!known.includes(key)) {
                this.problem(where, `unknown key \`${key}\`; the keys here are ${known.map((k) => `\`${k}\``).join(', ')}.`);
            }
        }
    }
    file(value) {
        if (!isObject(value)) {
            this.problem('', `the file must be a mapping with a \`cases\` list, not ${kind(value)}.`);
            return [];
        }
        this.unknownKeys('', value, FILE_KEYS);
        const cases = value['cases'];
        if (!Array.isArray(cases) || cases.length === 0) {
            this.problem('key `cases`', notAList(cases, 'case'));
            return [];
        }
        if (cases.length > MAX_CASES) {
            this.problem('key `cases`', `has ${cases.length} cases; at most ${MAX_CASES} are allowed.`);
            return [];
        }
        const seen = new Map();
        const out = [];
        cases.forEach((raw, index) => {
            const parsed = this.testCase(raw, index, seen);
            if (parsed)
                out.push(parsed);
        });
        return out;
    }
    testCase(raw, index, seen) {
        const number = `case #${index + 1}`;
        if (!isObject(raw)) {
            this.problem(number, `must be a mapping (with \`name\` and \`turns\`), not ${kind(raw)}.`);
            return undefined;
        }
        const rawName = raw['name'];
        let where = number;
        let name = '';
        if (typeof rawName !== 'string' || rawName.trim() === '') {
            this.problem(`${number}, key \`name\``, 'is required: a non-empty string.');
        }
        else {
            name = rawName.trim();
            where = `case "${name}"`;
            const first = seen.get(name);
            if (first !== undefined) {
                this.problem(`${where} (#${index + 1}), key \`name\``, `is not unique: case #${first + 1} has the same name.`);
            }
            else
                seen.set(name, index);
        }
        this.unknownKeys(where, raw, CASE_KEYS);
        const result = { name, turns: [] };
        const assistant = raw['assistant'];
        if (assistant !== undefined) {
            if (typeof assistant === 'string' && assistant.trim() !== '') {
                result.assistant = assistant.trim();
            }
            else {
                this.problem(`${where}, key \`assistant\``, 'must be a graph ID or assistant ID (a string).');
            }
        }
        const state = raw['state'];
        if (state !== undefined) {
            const steps = this.state(where, state);
            if (steps)
                result.state = steps;
        }
        const turns = raw['turns'];
        if (!Array.isArray(turns) || turns.length === 0) {
            this.problem(`${where}, key \`turns\``, notAList(turns, 'turn', ' (each with an `input`)'));
        }
        else if (turns.length > MAX_TURNS) {
            this.problem(`${where}, key \`turns\``, `has ${turns.length} turns; at most ${MAX_TURNS}.`);
        }
        else {
            turns.forEach((turn, i) => {
                const parsed = this.turn(`${where}, turn ${i + 1}`, turn);
                if (parsed)
                    result.turns.push(parsed);
            });
        }
        const checkpoints = raw['checkpoints'];
        if (checkpoints !== undefined) {
            if (typeof checkpoints === 'number' &&
                Number.isInteger(checkpoints) &&
                checkpoints >= 0 &&
                checkpoints <= MAX_CHECKPOINTS) {
                result.checkpoints = checkpoints;
            }
            else {
                this.problem(`${where}, key \`checkpoints\``, `must be a whole number from 0 to ${MAX_CHECKPOINTS} (the least number of ` +
                    'checkpoints in the thread history after the last turn).');
            }
        }
        return result;
    }
    state(where, state) {
        const at = `${where}, key \`state\``;
        if (!Array.isArray(state) || state.length === 0) {
            this.problem(at, `must be a non-empty list of supersteps (each with \`updates\`).`);
            return undefined;
        }
        const steps = [];
        state.forEach((step, i) => {
            const here = `${at}, superstep ${i + 1}`;
            if (!isObject(step)) {
                this.problem(here, `must be a mapping with \`updates\`, not ${kind(step)}.`);
                return;
            }
            this.unknownKeys(here, step, SUPERSTEP_KEYS);
            const updates = step['updates'];
            if (!Array.isArray(updates) || updates.length === 0) {
                this.problem(`${here}, key \`updates\``, 'must be a non-empty list of updates.');
                return;
            }
            const out = [];
            updates.forEach((update, j) => {
                const u = `${here}, update ${j + 1}`;
                if (!isObject(update)) {
                    this.problem(u, `must be a mapping with \`values\` and \`as_node\`, not ${kind(update)}.`);
                    return;
                }
                this.unknownKeys(u, update, UPDATE_KEYS);
                const asNode = update['as_node'];
                if (typeof asNode !== 'string' || asNode === '') {
                    this.problem(`${u}, key \`as_node\``, 'is required: `__start__` or a node of the graph (the agent server drops an ' +
                        '`__input__` update when the next run brings its own input).');
                    return;
                }
                const command = update['command'];
                if (command !== undefined && !isObject(command)) {
                    this.problem(`${u}, key \`command\``, `must be a mapping, not ${kind(command)}.`);
                    return;
                }
                out.push({
                    values: update['values'] ?? null,
                    asNode,
                    ...(command !== undefined ? { command } : {}),
                });
            });
            steps.push({ updates: out });
        });
        return steps;
    }
    turn(where, turn) {
        if (!isObject(turn)) {
            this.problem(where, `must be a mapping with \`input\`, not ${kind(turn)}.`);
            return undefined;
        }
        this.unknownKeys(where, turn, TURN_KEYS);
        if (!('input' in turn) || !isObject(turn['input'])) {
            this.problem(`${where}, key \`input\``, 'is required: the run input, a mapping such as `{messages: [{role: user, content: Hi}]}`.');
            return undefined;
        }
        const result = { input: turn['input'] };
        const expect = turn['expect'];
        if (expect === undefined || expect === null)
            return result;
        const at = `${where}, key \`expect\``;
        if (!isObject(expect)) {
            this.problem(at, `must be a mapping (\`contains\`, \`matches\`, \`values\`).`);
            return result;
        }
        this.unknownKeys(at, expect, EXPECT_KEYS);
        const checks = {};
        const contains = expect['contains'];
        if (contains !== undefined) {
            if (typeof contains === 'string' && contains !== '')
                checks.contains = contains;
            else if (typeof contains === 'number' || typeof contains === 'boolean') {
                checks.contains = String(contains);
            }
            else
                this.problem(`${where}, key \`expect.contains\``, 'must be a non-empty string.');
        }
        const matches = expect['matches'];
        if (matches !== undefined) {
            if (typeof matches !== 'string' || matches === '') {
                this.problem(`${where}, key \`expect.matches\``, 'must be a regular expression (a string).');
            }
            else {
                const problem = (0,_pattern_js__WEBPACK_IMPORTED_MODULE_1__/* .patternProblem */ .AL)(matches);
                if (problem === undefined)
                    checks.matches = matches;
                else {
                    this.problem(`${where}, key \`expect.matches\``, `is not a regular expression in RE2 syntax (the linear-time engine the checks ` +
                        `use; no lookarounds or back-references): ${problem}.`);
                }
            }
        }
        const values = expect['values'];
        if (values !== undefined) {
            if (isObject(values))
                checks.values = values;
            else {
                this.problem(`${where}, key \`expect.values\``, `must be a mapping (a partial match of the thread's state values), not ${kind(values)}.`);
            }
        }
        result.expect = checks;
        return result;
    }
}


/***/ })

};
