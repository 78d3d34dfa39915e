// Measures the password-hash limit in this process and prints it as JSON (see measureHashLimit's `env`).
import { measureHashLimit } from "./hash-limit.mjs";

const [seconds, threads] = process.argv.slice(2).map(Number);
process.stdout.write(JSON.stringify(await measureHashLimit(seconds, threads)));
