import CategoryGenerator

// generate-categories N DIRECTORY
let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[1]) else {
    print("usage: generate-categories N DIRECTORY")
    throw ExitCode.usage
}
try CategoryGenerator.write(count: count, to: arguments[2])

enum ExitCode: Error { case usage }
