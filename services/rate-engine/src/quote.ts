/**
 * The quote command (docs/rates.md):
 *
 *     npm run -s quote --workspace services/rate-engine < input.json
 *
 * `{ "snapshot", "request" }` in, `{ "rates", "trace" }` out; an array in, an
 * array out in the same order. Bad input: exit 1 with one line on stderr.
 */
import { QuoteInputError, quoteInput } from './engine';

function fail(message: string): never {
  process.stderr.write(`quote: ${message.replace(/\s+/g, ' ')}\n`);
  process.exit(1);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const text = await readStdin();
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    fail(`the input is not valid JSON (${(err as Error).message})`);
  }
  let output: unknown;
  try {
    output = Array.isArray(input)
      ? input.map((one, i) => {
          try {
            return quoteInput(one);
          } catch (err) {
            if (err instanceof QuoteInputError)
              throw new QuoteInputError(`input[${i}]: ${err.message}`);
            throw err;
          }
        })
      : quoteInput(input);
  } catch (err) {
    if (err instanceof QuoteInputError) fail(err.message);
    fail(`unexpected failure: ${(err as Error).message}`);
  }
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

void main();
