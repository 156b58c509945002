// esbuild settings shared by the per-app build (scripts/build-app.mjs) and the image's runtime
// tree (scripts/assemble-runtime.mjs): Node 20, ESM, everything bundled except the modules below.

/**
 * Optional modules that some dependencies probe for (with require() in a try, or only on a code
 * path this service never takes). They stay external and are not installed: the probe fails and
 * the dependency carries on without them.
 */
export const OPTIONAL_EXTERNALS = {
  "pg-native": "pg's native binding, loaded only through pg.native",
  "cpu-features": "ssh2's optional native speed-up",
  ssh2: "optional transport of a dependency",
  "@aws-sdk/*": "optional cloud credential providers",
  "mock-aws-s3": "test helper of node-pre-gyp",
  "aws-sdk": "optional cloud SDK",
  nock: "test helper",
  bufferutil: "ws's optional native speed-up",
  "utf-8-validate": "ws's optional native speed-up",
  "@valkey/valkey-glide": "BullMQ's optional Valkey GLIDE client (this service uses ioredis)",
};

/** Node's built-in modules are external by nature; the bundle's own `require` and `__dirname` come from this banner. */
export const nodeBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  external: Object.keys(OPTIONAL_EXTERNALS),
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; import { fileURLToPath as __fileURLToPath } from 'node:url'; import { dirname as __pathDirname } from 'node:path'; const require = __createRequire(import.meta.url); const __filename = __fileURLToPath(import.meta.url); const __dirname = __pathDirname(__filename);",
  },
};
