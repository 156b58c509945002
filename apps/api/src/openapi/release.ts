import rootPackage from "../../../../package.json" with { type: "json" };

/** The release's semantic version: the root package.json's (see CHANGELOG.md). */
export const RELEASE_VERSION: string = rootPackage.version;
