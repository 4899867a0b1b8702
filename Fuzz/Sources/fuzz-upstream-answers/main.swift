import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's driver, with this target's LLVMFuzzerTestOneInput.
exit(fuzzMain(CommandLine.argc, CommandLine.unsafeArgv) { test($0, $1) })
