import Foundation
import Logging
import NIOConcurrencyHelpers

/// The FFmpeg the server runs, found once at start. Without one the server works as before and refuses videos
/// with `video_unavailable`.
struct VideoEncoder: Sendable {
  let executable: URL

  /// `configured` (an absolute path, from `COMPLETIONKIT_FFMPEG`) when it is executable, else `ffmpeg` on `PATH`;
  /// nil when there is none.
  static func locate(configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> VideoEncoder? {
    let fileManager = FileManager.default
    if let configured, !configured.isEmpty {
      return fileManager.isExecutableFile(atPath: configured) ? VideoEncoder(executable: URL(fileURLWithPath: configured)) : nil
    }
    for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
      if fileManager.isExecutableFile(atPath: candidate.path) { return VideoEncoder(executable: candidate) }
    }
    return nil
  }

  struct Failed: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs FFmpeg with `arguments` (which end in `-progress pipe:1`) and reports the fraction of `duration` encoded
  /// so far. The caller waits without holding a thread: the process's end and its pipes' ends resume it.
  func run(_ arguments: [String], duration: Double, progress: @escaping @Sendable (Double) -> Void) async throws {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    // Not inherited by another encode's FFmpeg started meanwhile: its copy of these write ends would hold back
    // the end of file the readers below wait for until that other encode ended. (FFmpeg's own stdout and
    // stderr are copies made for it, without the flag.)
    for handle in [output.fileHandleForReading, output.fileHandleForWriting, errors.fileHandleForReading, errors.fileHandleForWriting] {
      _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
    }
    let (exits, exited) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
    process.terminationHandler = { finished in
      exited.yield(finished.terminationStatus)
      exited.finish()
    }
    try process.run()
    // Its exit status, awaited in a task of its own: a cancelled caller still waits for FFmpeg to end.
    let exit = Task {
      var status: Int32 = -1
      for await code in exits { status = code }
      return status
    }
    let pending = NIOLockedValueBox("")
    let messages = NIOLockedValueBox(Data())
    // Each pipe is read to its end on a thread of its own, not with `readabilityHandler`: on Linux that handler is a
    // dispatch read source, and installing and removing those while other encodes do the same can crash
    // libdispatch's event thread (swift-corelibs-libdispatch#949). FFmpeg's pipes end when it exits.
    async let progressRead: Void = Self.readToEnd(output.fileHandleForReading) { chunk in
      let lines: [Substring] = pending.withLockedValue { text in
        text += String(decoding: chunk, as: UTF8.self)
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        text = String(parts.removeLast())
        return parts
      }
      for line in lines where line.hasPrefix("out_time_us=") {
        if let micros = Double(line.dropFirst("out_time_us=".count)), duration > 0 {
          progress(min(max(micros / 1_000_000 / duration, 0), 1))
        }
      }
    }
    async let errorsRead: Void = Self.readToEnd(errors.fileHandleForReading) { chunk in
      // Keep the last few kilobytes: enough to say why, never a growing buffer.
      messages.withLockedValue { $0.append(chunk); if $0.count > 4096 { $0 = $0.suffix(4096) } }
    }
    let status = await exit.value
    _ = await (progressRead, errorsRead)
    guard status == 0 else {
      let text = messages.withLockedValue { String(decoding: $0, as: UTF8.self) }
      throw Failed(description: "ffmpeg exited with status \(status): \(text.trimmingCharacters(in: .whitespacesAndNewlines).suffix(600))")
    }
  }

  /// Reads `handle` until its end on a thread of its own, handing each chunk to `chunk`, and closes it.
  private static func readToEnd(_ handle: FileHandle, _ chunk: @escaping @Sendable (Data) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let reader = Thread {
        // `read` itself, not `availableData`, which stops the process on a read error.
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count > 0 {
            chunk(Data(buffer[0..<count]))
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break
          }
        }
        try? handle.close()
        done.resume()
      }
      reader.name = "ffmpeg pipe"
      reader.start()
    }
  }
}

/// Makes share videos in the background, a bounded number at a time, and keeps what it made.
///
/// At most `slots` encodes run at once (one per core by default: an encode keeps a core busy for its whole run, and
/// more at once would only make each slower while requests wait); at most `waitingLimit` more wait their turn, and
/// beyond that a request is refused with `busy` instead of piling up. A video is made once per key: its file lives in
/// `directory` and is answered from there from then on; a request for a video already being made joins it.
actor VideoRenderQueue {
  /// Where a video stands.
  enum Status: Sendable, Equatable {
    case none
    case queued
    case rendering(progress: Double)
    case ready
    case failed(String)
  }

  /// The waiting line is full.
  struct Busy: Error {}

  /// Makes the video into `output` (a temporary file, moved into place when the work succeeds), reporting progress.
  typealias Work = @Sendable (_ output: URL, _ progress: @escaping @Sendable (Double) -> Void) async throws -> Void

  let directory: URL
  let slots: Int
  let waitingLimit: Int
  private var states: [String: Status] = [:]
  private var waiting: [(key: String, work: Work)] = []
  private var running = 0
  private let logger = Logger(label: "completionkit.videos")
  /// The most encodes that ever ran at once (tests check the bound).
  private(set) var peakRunning = 0
  /// How many times a video was made (tests check that a cached one is not made again).
  private(set) var encodes = 0

  init(directory: URL, slots: Int, waitingLimit: Int) {
    self.directory = directory
    self.slots = max(1, slots)
    self.waitingLimit = max(0, waitingLimit)
  }

  /// The finished file of `key` (it exists once the status is `.ready`).
  nonisolated func file(for key: String) -> URL { directory.appendingPathComponent(key + ".mp4") }

  /// Where the video of `key` stands; a file made by an earlier run of the server counts as ready.
  func status(of key: String) -> Status {
    if let state = states[key] { return state }
    return FileManager.default.fileExists(atPath: file(for: key).path) ? .ready : .none
  }

  /// Starts making the video of `key` unless it is made or being made (then nothing new happens); a failed one is
  /// tried again. Throws ``Busy`` when every slot is taken and the waiting line is full.
  func start(_ key: String, work: @escaping Work) throws(Busy) -> Status {
    switch status(of: key) {
    case .ready: return .ready
    case .queued: return .queued
    case .rendering(let progress): return .rendering(progress: progress)
    case .none, .failed: break
    }
    if running < slots {
      launch(key, work)
    } else {
      guard waiting.count < waitingLimit else { throw Busy() }
      waiting.append((key, work))
      states[key] = .queued
    }
    return states[key] ?? .none
  }

  private func launch(_ key: String, _ work: @escaping Work) {
    running += 1
    encodes += 1
    peakRunning = max(peakRunning, running)
    states[key] = .rendering(progress: 0)
    let target = file(for: key)
    let folder = directory
    // Detached: the work is not the request's and outlives it; the request only reads the status.
    Task.detached {
      let temporary = folder.appendingPathComponent(".\(key)-\(UUID().uuidString).part")
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await work(temporary) { fraction in Task { await self.report(key, fraction) } }
        // Moved into place whole: a reader never sees half a video, and a killed encode leaves only a `.part`.
        _ = try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: temporary, to: target)
        await self.finish(key, failure: nil)
      } catch {
        try? FileManager.default.removeItem(at: temporary)
        await self.finish(key, failure: String(describing: error))
      }
    }
  }

  private func report(_ key: String, _ fraction: Double) {
    if case .rendering = states[key] { states[key] = .rendering(progress: fraction) }
  }

  private func finish(_ key: String, failure: String?) {
    running -= 1
    states[key] = failure.map { .failed($0) }
    if let failure { logger.error("A share video could not be made", metadata: ["video": "\(key)", "error": "\(failure)"]) }
    if !waiting.isEmpty {
      let next = waiting.removeFirst()
      launch(next.key, next.work)
    }
  }
}
