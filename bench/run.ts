// `npm run bench -- <name>`: imports bench/<name>.ts and runs its default export.
const name = process.argv[2];
if (name === undefined || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: npm run bench -- <name>   (a file bench/<name>.ts)');
  process.exit(2);
}
const bench = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> | void };
await bench.default(process.argv.slice(3));
