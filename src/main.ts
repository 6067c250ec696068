import { parseArgs, runAdminCommand, USAGE } from './admin/commands.ts';
import { sendToService } from './admin/control.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { loadSigningKey } from './engine/signing.ts';
import { createLogger } from './log.ts';
import { openConfiguredArchive, openConfiguredStore, startService } from './service.ts';
import { demoSites, ensureDemoArchive } from './demo/archive.ts';

/** Entry point: `serve` | `api` | `worker` run the service; `migrate` and `admin …` are operator commands. */
const [command = 'serve', ...rest] = process.argv.slice(2);

let config: Config;
try {
  config = loadConfig(command === 'api' || command === 'worker' ? { ...process.env, ROLE: command } : process.env);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  throw err;
}

switch (command) {
  case 'serve':
  case 'api':
  case 'worker':
    await serve(config);
    break;
  case 'migrate':
    await migrate(config);
    break;
  case 'admin':
    await admin(config, rest);
    break;
  case 'demo':
    await demo(config, rest);
    break;
  case 'campaign':
    await campaign(config, rest);
    break;
  default:
    console.error(`unknown command "${command}"; expected serve, api, worker, migrate, admin, demo or campaign`);
    process.exit(2);
}

async function serve(config: Config) {
  const log = createLogger(config.logLevel);
  const running = await startService(config, log).catch((err: Error) => {
    log.fatal({ err }, 'could not start');
    process.exit(1);
  });
  const shutdown = (signal: string) => {
    log.info({ signal }, 'signal received');
    running.stop().then(
      () => process.exit(0),
      (err: Error) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

async function migrate(config: Config) {
  // An operator command: a busy database or a refused connection is one line, not a stack.
  try {
    const { store, release } = await openConfiguredStore(config);
    try {
      const applied = await store.migrate();
      console.log(applied.length ? `applied ${applied.join(', ')}` : 'database schema is up to date');
    } finally {
      await store.close();
      await release();
    }
  } catch (err) {
    console.error(`migrate: ${(err as Error).message}`);
    process.exit(1);
  }
}

async function admin(config: Config, argv: string[]) {
  const { words, flags } = parseArgs(argv);
  const asJson = flags.json === true;
  delete flags.json;
  const print = (value: Record<string, unknown>) => {
    if (asJson) process.stdout.write(`${JSON.stringify(value)}\n`);
    else for (const [k, v] of Object.entries(value)) console.log(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  };
  const fail = (code: string, message: string) => {
    if (asJson) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    else console.error(message);
    process.exit(code === 'usage' ? 2 : 1);
  };
  if (words.length === 0) return fail('usage', USAGE);
  try {
    // A running embedded-database service holds the database; it runs the command for us.
    const remote = config.databaseUrl ? null : await sendToService(config.dataDir, words, flags);
    if (remote) return remote.ok ? print(remote.result!) : fail(remote.error!.code, remote.error!.message);
    const { store, release } = await openConfiguredStore(config);
    try {
      await store.migrate();
      print(await runAdminCommand(store, words, flags, { key: loadSigningKey(config.signingKeyPem, config.dataDir), links: { baseUrl: config.baseUrl } }));
    } finally {
      await store.close();
      await release();
    }
  } catch (err) {
    const e = err as { code?: string; message: string };
    fail(typeof e.code === 'string' ? e.code : 'internal', e.message);
  }
}

/** A whole-number flag, or the default when it is not given. */
function wholeFlag(flags: Record<string, string | boolean>, name: string, fallback: number): number {
  const v = flags[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < 0) {
    console.error(`--${name} takes a whole number`);
    process.exit(2);
  }
  return n;
}

/** `--sky clear` draws the hard world under the demo sites' clear sky; its regions' cloud regimes by default. */
function skyFlag(flags: Record<string, string | boolean>): 'regional' | 'clear' {
  if (flags.sky === undefined || flags.sky === 'regional') return 'regional';
  if (flags.sky === 'clear') return 'clear';
  console.error('--sky takes regional or clear');
  process.exit(2);
}

/** `--mix forest` draws the hard world from the kinds that hold forest and pure rubber, `--mix rubber` from pure rubber alone, `--mix remnant` from dry forest remnants amid farmland, `--mix ecotone` from dry forest beside evergreen forest; every other kind by default. */
function mixFlag(flags: Record<string, string | boolean>): 'all' | 'forest' | 'rubber' | 'remnant' | 'ecotone' {
  if (flags.mix === undefined || flags.mix === 'all') return 'all';
  if (flags.mix === 'forest' || flags.mix === 'rubber' || flags.mix === 'remnant' || flags.mix === 'ecotone') return flags.mix;
  console.error('--mix takes all, forest, rubber, remnant or ecotone');
  process.exit(2);
}

/**
 * `demo sites [--json]`: the demo world's sites and the verdict each is built to reach; `demo generate`: write it now;
 * `demo generate --world hard --seed N [--sites M]`: the hard world; `demo truth FILE --seed N`: the hard world's truth under each feature;
 * `demo generate --world book --seed S --plots N`: a cooperative's book of N adjacent plots.
 */
async function demo(config: Config, argv: string[]) {
  const { words, flags } = parseArgs(argv);
  if (words[0] === 'generate' && flags.world === 'book') {
    const { bookDemoCommand } = await import('./demo/book-world/world.ts');
    try {
      for (const line of await bookDemoCommand(config.dataDir, { seed: wholeFlag(flags, 'seed', 1), plots: wholeFlag(flags, 'plots', 1000) })) console.log(line);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
  } else if ((words[0] === 'generate' && flags.world === 'hard') || words[0] === 'truth') {
    const { hardDemoCommand } = await import('./demo/hard-world/command.ts');
    try {
      for (const line of await hardDemoCommand(config.dataDir, words, { seed: wholeFlag(flags, 'seed', 1), sites: wholeFlag(flags, 'sites', 140), sky: skyFlag(flags), mix: mixFlag(flags) })) console.log(line);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
  } else if (words[0] === 'sites') {
    const sites = demoSites().map((s) => ({ name: s.name, country: s.country, commodity: s.commodity, bounds: s.bounds, plot_ref: s.plot_ref, verdict: s.verdict, reason: s.reason, reasons: s.reasons, synthetic: true }));
    if (flags.json === true) process.stdout.write(`${JSON.stringify(sites)}\n`);
    else for (const s of sites) console.log(`${s.name.padEnd(28)} ${s.country} ${s.commodity.padEnd(10)} ${s.verdict} (${s.reasons.join(', ')})`);
  } else if (words[0] === 'generate') {
    const result = await ensureDemoArchive(config.dataDir);
    console.log(result.generated ? `generated the synthetic demo world ${result.version} under ${config.dataDir}` : `the demo world ${result.version} is already in place`);
  } else {
    console.error('usage: npm run --silent demo -- sites [--json] | generate [--world hard --seed N --sites M --mix all|forest|rubber|remnant|ecotone | --world book --seed S --plots N] | truth FILE.geojson --seed N');
    process.exit(2);
  }
}

/** `campaign <controls.geojson> [--out <file>] [--json]`: a control campaign, its counts written to the campaign file. */
async function campaign(config: Config, argv: string[]) {
  const { CAMPAIGN_USAGE, describeCampaign, runCampaignCommand } = await import('./engine/context/campaign-command.ts');
  const { words, flags } = parseArgs(argv);
  if (words[0] === 'hard' && words.length === 1) {
    const { hardCampaignCommand } = await import('./demo/hard-world/command.ts');
    const seed = wholeFlag(flags, 'seed', 1);
    const sites = wholeFlag(flags, 'sites', 140);
    try {
      for (const line of await hardCampaignCommand(config, { seed, sites, sky: skyFlag(flags), mix: mixFlag(flags), out: typeof flags.out === 'string' ? flags.out : undefined })) console.log(line);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
    return;
  }
  if (words.length !== 1) {
    console.error(CAMPAIGN_USAGE);
    process.exit(2);
  }
  try {
    const run = await runCampaignCommand(config, {
      controlsFile: words[0],
      openArchive: () => openConfiguredArchive(config, createLogger(config.logLevel)),
      out: typeof flags.out === 'string' ? flags.out : undefined,
    });
    if (flags.json === true) process.stdout.write(`${JSON.stringify(run)}\n`);
    else for (const line of describeCampaign(run)) console.log(line);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
