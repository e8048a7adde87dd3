// Benchmarks for the budgets the issues name. Not tests: figures go in docs/PERFORMANCE.md.
//
//   swift build -c release --product completionkit-bench
//   taskset -c 0 .build/release/completionkit-bench motion        # frame evaluation, one core
//   .build/release/completionkit-bench cryptogram                  # puzzle creation and the server under load
//   taskset -c 0 .build/release/completionkit-bench kids           # KidsGame state transitions
//   .build/release/completionkit-bench kids-server                 # a Waldabenteuer event through the server
//   .build/release/completionkit-bench recorder                    # what recording a completion adds to a write
//   .build/release/completionkit-bench projects                    # task toggles, and live updates to 1,000 open pages
//   .build/release/completionkit-bench challenges                  # completions with fan-out, feed pages, a big account
//   .build/release/completionkit-bench fanout                      # completions at 100…5,000 followers, the outbox, other writes
//   .build/release/completionkit-bench soak URL 10 0 PID           # ten minutes at half the saturating guess rate
import CompletionServer
import Foundation

// As `completionkit serve` does (COMPLETIONKIT_SEPARATE_TASK_THREADS=1 measures without it).
if ProcessInfo.processInfo.environment["COMPLETIONKIT_SEPARATE_TASK_THREADS"] != "1" {
  Launcher.runTasksOnEventLoops()
}

let arguments = Array(CommandLine.arguments.dropFirst())
let suite = arguments.first ?? "motion"
switch suite {
case "motion":
  runMotionBenchmarks(frames: arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000)
case "cryptogram":
  try await runCryptogramBenchmarks(seconds: arguments.dropFirst().first.flatMap { Double($0) } ?? 20)
case "kids":
  runKidsGameBenchmarks(rounds: arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000)
case "kids-server":
  try await runKidsServerBenchmarks(seconds: arguments.dropFirst().first.flatMap { Double($0) } ?? 20)
case "projects":
  try await runProjectsBenchmarks(seconds: arguments.dropFirst().first.flatMap { Double($0) } ?? 20)
case "challenges":
  // completionkit-bench challenges [people] [follows] [seconds]
  try await runChallengesBenchmarks(
    users: arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000, follows: arguments.dropFirst(2).first.flatMap { Int($0) } ?? 400,
    seconds: arguments.dropFirst(3).first.flatMap { Double($0) } ?? 20)
case "fanout":
  // completionkit-bench fanout [seconds] [followers,followers,…]
  try await runFanOutBenchmarks(
    followerCounts: (arguments.dropFirst(2).first ?? "100,400,1600,5000").split(separator: ",").compactMap { Int($0) },
    seconds: arguments.dropFirst().first.flatMap { Double($0) } ?? 10)
case "recorder":
  try await runRecorderBenchmark(rounds: arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000)
case "json":
  try runJSONEncodingBenchmark(rounds: arguments.dropFirst().first.flatMap { Int($0) } ?? 5_000)
case "load":
  // Load against a server in another process: completionkit-bench load http://127.0.0.1:8095 20
  // Add the server's process id to read its CPU per request: … load http://127.0.0.1:8095 20 12345
  try await runExternalLoad(
    base: arguments.dropFirst().first ?? "http://127.0.0.1:8095", seconds: arguments.dropFirst(2).first.flatMap { Double($0) } ?? 20,
    serverPID: arguments.dropFirst(3).first.flatMap { Int32($0) })
case "soak":
  // completionkit-bench soak http://127.0.0.1:8095 10 [guesses-per-second] [server-pid]
  try await runSoak(
    base: arguments.dropFirst().first ?? "http://127.0.0.1:8095", minutes: arguments.dropFirst(2).first.flatMap { Double($0) } ?? 10,
    rate: arguments.dropFirst(3).first.flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil },
    serverPID: arguments.dropFirst(4).first.flatMap { Int32($0) })
case "serve":
  // A release-built server for probing from outside the process (latency checks with other clients).
  try await serveForProbing(port: arguments.dropFirst().first.flatMap { Int($0) } ?? 8095)
default:
  print("usage: completionkit-bench [motion [frames] | cryptogram [seconds] | kids [rounds] | kids-server [seconds] | projects [seconds] | challenges [people] [follows] [seconds] | fanout [seconds] [followers,…] | recorder [rounds] | json [rounds] | serve [port] | load [url] [seconds] | soak [url] [minutes] [rate, 0: half of saturation] [server pid]]")
}
