/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: it throws on the first line or
 * family a Prometheus server would refuse or misread, and answers the samples otherwise.
 *
 * Checked: every line is blank, `# HELP name text`, `# TYPE name type` or a sample `name{label="value",…} value
 * [timestamp]`, with the format's name, label and escape rules and Go's float syntax (NaN, +Inf, -Inf too); HELP
 * and TYPE at most once per family and TYPE before its samples; a family's samples together; no sample twice; a
 * sample's name belongs to its family's type (`_bucket`/`_sum`/`_count` for a histogram); and per histogram series
 * `le` buckets that never decrease, ending with `+Inf` equal to `_count`. Values follow Go's float syntax, so
 * prom-client's `Nan` (for an event-loop mean with no sample yet) is read as NaN, as Prometheus reads it.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL_NAME = "[a-zA-Z_][a-zA-Z0-9_]*";
const HELP_LINE = new RegExp(`^# HELP (${METRIC_NAME}) ?((?:[^\\\\\\n]|\\\\[\\\\n])*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL_PAIR = new RegExp(`^(${LABEL_NAME})="((?:[^"\\\\\\n]|\\\\["\\\\n])*)"`);
const FLOAT = /^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;

/** Go's strconv.ParseFloat, which Prometheus reads values with: also NaN, Inf and Infinity, signed, in any case. */
function parseValue(raw: string, where: string): number {
  const special = /^([+-]?)(nan|inf|infinity)$/i.exec(raw);
  if (special) {
    if (special[2]!.toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT.test(raw)) throw new Error(`${where}: "${raw}" is not a sample value`);
  return Number(raw);
}

function parseLabels(raw: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest.length) {
    const match = LABEL_PAIR.exec(rest);
    if (!match) throw new Error(`${where}: bad label syntax at "${rest}"`);
    const [whole, name, escaped] = match as unknown as [string, string, string];
    if (name in labels) throw new Error(`${where}: label ${name} twice`);
    if (name.startsWith("__")) throw new Error(`${where}: label ${name} is reserved`);
    labels[name] = escaped.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(whole.length);
    if (rest.startsWith(",")) rest = rest.slice(1);
    else if (rest.length) throw new Error(`${where}: expected , between labels at "${rest}"`);
  }
  return labels;
}

/** The family a sample name belongs to, given the families declared so far. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const own = families.get(name);
  if (own && own.type !== "histogram" && own.type !== "summary") return own;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family?.type === "histogram") return family;
    if (family?.type === "summary" && suffix !== "_bucket") return family;
  }
  if (own?.type === "summary") return own;
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length && !text.endsWith("\n")) throw new Error("the text must end with a line feed");
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const finished = new Set<string>();
  let current: Family | undefined;
  const lines = text.split("\n");
  lines.pop();
  lines.forEach((line, index) => {
    const where = `line ${index + 1} (${JSON.stringify(line.slice(0, 80))})`;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const help = HELP_LINE.exec(line);
      const type = TYPE_LINE.exec(line);
      if (line.startsWith("# HELP ") && !help) throw new Error(`${where}: bad HELP line`);
      if (line.startsWith("# TYPE ") && !type) throw new Error(`${where}: bad TYPE line`);
      const name = help?.[1] ?? type?.[1];
      if (!name) return; // any other comment
      if (finished.has(name)) throw new Error(`${where}: family ${name} appears twice`);
      let family = families.get(name);
      if (!family) {
        family = { name, type: "untyped", samples: [] };
        families.set(name, family);
      }
      if (current && current !== family) finished.add(current.name);
      current = family;
      if (help) {
        if (family.help !== undefined) throw new Error(`${where}: second HELP for ${name}`);
        family.help = help[2]!;
      } else {
        if (family.samples.length) throw new Error(`${where}: TYPE for ${name} after its samples`);
        if ((family as Family & { typed?: boolean }).typed) throw new Error(`${where}: second TYPE for ${name}`);
        (family as Family & { typed?: boolean }).typed = true;
        family.type = type![2]!;
      }
      return;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`${where}: not a sample line`);
    const [, name, rawLabels, rawValue] = match as unknown as [string, string, string | undefined, string];
    const labels = parseLabels(rawLabels ?? "", where);
    const value = parseValue(rawValue, where);
    let family = familyOf(name, families);
    if (!family) {
      // An untyped sample with no declaration is its own family.
      family = { name, type: "untyped", samples: [] };
      families.set(name, family);
    }
    if (finished.has(family.name)) throw new Error(`${where}: sample of ${family.name} away from its family`);
    if (current && current !== family) finished.add(current.name);
    current = family;
    if (family.type === "histogram" && name.endsWith("_bucket") && labels.le === undefined) {
      throw new Error(`${where}: a histogram bucket without le`);
    }
    if (family.type === "counter" && value < 0) throw new Error(`${where}: a negative counter`);
    const key = `${name}{${Object.entries(labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(",")}}`;
    if (seen.has(key)) throw new Error(`${where}: sample ${key} twice`);
    seen.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { buckets: [] }));
    if (sample.name.endsWith("_bucket")) entry.buckets.push([parseValue(le!, `${family.name} le`), sample.value]);
    else if (sample.name.endsWith("_count")) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [key, entry] of series) {
    const where = `histogram ${family.name} ${key}`;
    if (entry.count === undefined || entry.sum === undefined) throw new Error(`${where}: no _count or _sum`);
    const sorted = [...entry.buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Number.POSITIVE_INFINITY) throw new Error(`${where}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]![0] === sorted[i - 1]![0]) throw new Error(`${where}: bucket le=${sorted[i]![0]} twice`);
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new Error(`${where}: buckets decrease at le=${sorted[i]![0]}`);
    }
    if (sorted.at(-1)![1] !== entry.count) throw new Error(`${where}: +Inf bucket ${sorted.at(-1)![1]} != _count ${entry.count}`);
  }
}

/** The value of the sample of that name and exactly those labels; undefined when there is none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      const keys = Object.keys(sample.labels);
      if (keys.length === Object.keys(labels).length && keys.every((k) => sample.labels[k] === labels[k])) return sample.value;
    }
  }
  return undefined;
}

/** Every sample of that name, with its labels. */
export function samplesOf(families: Map<string, Family>, name: string): Sample[] {
  return [...families.values()].flatMap((family) => family.samples.filter((sample) => sample.name === name));
}
