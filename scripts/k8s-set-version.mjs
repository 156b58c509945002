#!/usr/bin/env node
// Sets the release version in the Kubernetes manifests: the image tag of every workload
// (k8s/base/kustomization.yaml, images: newTag) and the migration Job's name suffix
// (k8s/base/migrate/kustomization.yaml, nameSuffix: -<version with dots as dashes>).
//
//   node scripts/k8s-set-version.mjs            the root package.json's version
//   node scripts/k8s-set-version.mjs 1.4.0      that version
//   node scripts/k8s-set-version.mjs 1.4.0 DIR  in DIR/k8s instead of this checkout's (tests)
//
// test/k8s-manifests.test.ts checks both equal package.json's version, so a release that bumps
// package.json and forgets this fails the tests.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const version = process.argv[2] ?? JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
const k8s = join(process.argv[3] ?? root, "k8s");
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error(`not a release version: ${version}`);
  process.exit(2);
}
/** DNS-1123: lower case, digits and dashes; the Job's name must stay a valid label value too. */
const suffix = `-${version.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

function edit(file, pattern, replacement) {
  const path = join(k8s, file);
  const text = readFileSync(path, "utf8");
  if (!pattern.test(text)) {
    console.error(`${file}: ${pattern} not found`);
    process.exit(1);
  }
  writeFileSync(path, text.replace(pattern, replacement));
}

edit("base/kustomization.yaml", /(- name: outreach\n\s+newTag: )"?[^"\n]*"?/, `$1"${version}"`);
edit("base/migrate/kustomization.yaml", /^nameSuffix: .*$/m, `nameSuffix: ${suffix}`);
console.log(`k8s: image outreach:${version}, migration Job outreach-migrate${suffix}`);
