/// The compiler flags a TypeScript project may use, for the tests that compile generated code and
/// the docs' snippets with Debian's `tsc`.
public enum TypeScriptFlags {
    /// `@tsconfig/strictest`'s checks (those TypeScript 4.8 has), with no output: code that
    /// compiles under these compiles under any stricter set a project chooses.
    public static let strictest = [
        "--strict", "--noUncheckedIndexedAccess", "--noPropertyAccessFromIndexSignature", "--exactOptionalPropertyTypes",
        "--noImplicitOverride", "--noImplicitReturns", "--noFallthroughCasesInSwitch", "--noUnusedLocals", "--noUnusedParameters",
        "--allowUnusedLabels", "false", "--allowUnreachableCode", "false", "--isolatedModules", "--forceConsistentCasingInFileNames",
        "--noEmit",
    ]

    /// Node's module system, as `"module": "node16"` projects use it: a file is an ES module when
    /// its `package.json` says `"type": "module"`, CommonJS otherwise.
    public static let node16 = ["--module", "node16", "--moduleResolution", "node16", "--target", "es2022", "--lib", "es2022,dom"]
}
