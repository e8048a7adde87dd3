#if canImport(SwiftUI)
import Foundation
import KidsGame
#if canImport(AVFoundation)
import AVFoundation
#endif
#if canImport(Network)
import Network
#endif
#if canImport(os)
import os
#endif
#if canImport(UIKit)
import UIKit
#endif

// The platform services behind `KidsGameModel`: the save file, the German voice, sound effects, haptics,
// connectivity and the log. Each one degrades to doing nothing where its framework is missing, so the model
// itself never needs a platform check.

// MARK: - Save file

/// Where the game is saved: one JSON file (`GameMachine.encoded()`), written atomically. No UserDefaults.
public struct KidsGameStore: Sendable {
  /// The save file.
  public let url: URL

  /// A store writing to `url`.
  public init(url: URL) {
    self.url = url
  }

  /// `Application Support/Waldabenteuer/game.json`.
  public static var defaultURL: URL {
    URL.applicationSupportDirectory
      .appending(path: "Waldabenteuer", directoryHint: .isDirectory)
      .appending(path: "game.json", directoryHint: .notDirectory)
  }

  /// The folder the save file lives in.
  public var directory: URL { url.deletingLastPathComponent() }

  /// Where uploaded video files are kept, each named by its id (`upload-…`) with any extension.
  public var uploadsDirectory: URL { directory.appending(path: "Videos", directoryHint: .isDirectory) }

  /// What was saved, or nil when nothing was (a missing file is a fresh start, not an error).
  public func load() throws -> Data? {
    guard FileManager.default.fileExists(atPath: url.path(percentEncoded: false)) else { return nil }
    return try Data(contentsOf: url)
  }

  /// Replaces the save file with `data` (atomically: a crash mid-write keeps the previous save).
  public func save(_ data: Data) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try data.write(to: url, options: [.atomic])
  }

  /// Moves an unreadable save aside (`game.unreadable-<seconds>.json` next to it), so the next save cannot
  /// replace the only copy of a child's coins. Returns where it went, or nil when there was nothing to move.
  @discardableResult
  public func quarantine(at date: Date) -> URL? {
    guard FileManager.default.fileExists(atPath: url.path(percentEncoded: false)) else { return nil }
    let name = url.deletingPathExtension().lastPathComponent
    let target = directory.appending(path: "\(name).unreadable-\(Int(date.timeIntervalSince1970)).json")
    do {
      try FileManager.default.moveItem(at: url, to: target)
      return target
    } catch {
      return nil
    }
  }

  /// When the game was last saved, from the file's modification date.
  public var lastSaved: Date? {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
    return attributes?[.modificationDate] as? Date
  }

  /// The uploaded file for the video `id`, whatever its extension.
  public func uploadedVideo(id: String) -> URL? {
    let files = try? FileManager.default.contentsOfDirectory(
      at: uploadsDirectory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
    return files?.first { $0.deletingPathExtension().lastPathComponent == id }
  }
}

// MARK: - Log

/// The game's log: transitions at debug level, refusals and recovery at info, failures as errors.
struct KidsGameLog {
  #if canImport(os)
  private let logger = Logger(subsystem: "CompletionKitUI", category: "Waldabenteuer")
  #endif

  func transition(from: GameState, to: GameState) {
    #if canImport(os)
    logger.debug("transition \(from.name, privacy: .public) → \(to.name, privacy: .public)")
    #endif
  }

  func refused(_ refusal: Refusal) {
    #if canImport(os)
    logger.info("\(refusal.description, privacy: .public)")
    #endif
  }

  func recovered(_ note: RecoveryNote) {
    #if canImport(os)
    let outcome = note.outcome.rawValue
    let saved = note.savedState?.name ?? "-"
    let restored = note.restoredState.name
    let problems = note.problems.joined(separator: "; ")
    logger.info(
      "restore \(outcome, privacy: .public): \(saved, privacy: .public) → \(restored, privacy: .public) \(problems, privacy: .public)"
    )
    #endif
  }

  func note(_ message: String) {
    #if canImport(os)
    logger.info("\(message, privacy: .public)")
    #endif
  }

  func failure(_ message: String, _ error: any Error) {
    #if canImport(os)
    logger.error("\(message, privacy: .public): \(String(describing: error), privacy: .public)")
    #endif
  }
}

// MARK: - Voice

#if canImport(AVFoundation)
/// The narrator and Bennie: the system's German voice at 85 % of the default rate (the script's pace).
/// Lines queue in order; a line's `delay` becomes the pause before it. `onLineStarted` reports each line as it
/// begins, so Bennie's bubble shows the words he is saying, not the ones still waiting.
@MainActor
final class KidsVoice {
  /// The script's pace: 85 % of the default speech rate.
  static let rateFactor: Float = 0.85
  /// The voice's language.
  static let language = "de-DE"

  /// Called on the main actor when a line starts.
  var onLineStarted: @MainActor (SpokenLine) -> Void = { _ in }

  private let synthesizer = AVSpeechSynthesizer()
  private let events: SpeechEvents
  private var queued: [ObjectIdentifier: SpokenLine] = [:]

  init() {
    events = SpeechEvents()
    synthesizer.delegate = events
    events.onStart = { [weak self] id in
      Task { @MainActor in self?.started(id) }
    }
    #if os(iOS)
    // Spoken words, mixed with other audio and ducking it (the music channel drops while a voice plays).
    try? AVAudioSession.sharedInstance().setCategory(.playback, mode: .spokenAudio, options: [.duckOthers])
    #endif
  }

  /// Whether a voice can speak at all.
  var isAvailable: Bool { true }

  func speak(_ line: SpokenLine) {
    let utterance = AVSpeechUtterance(string: line.text)
    utterance.voice = AVSpeechSynthesisVoice(language: Self.language)
    utterance.rate = AVSpeechUtteranceDefaultSpeechRate * Self.rateFactor
    utterance.preUtteranceDelay = line.delay
    queued[ObjectIdentifier(utterance)] = line
    synthesizer.speak(utterance)
  }

  /// Stops at once and drops every queued line (a new screen has its own words).
  func stop() {
    synthesizer.stopSpeaking(at: .immediate)
    queued.removeAll()
  }

  private func started(_ id: ObjectIdentifier) {
    guard let line = queued.removeValue(forKey: id) else { return }
    onLineStarted(line)
  }
}

/// Forwards the synthesizer's callbacks (which arrive on its own queue) as Sendable identifiers.
private final class SpeechEvents: NSObject, AVSpeechSynthesizerDelegate, @unchecked Sendable {
  // Set once, before the synthesizer can call back; never changed after.
  var onStart: @Sendable (ObjectIdentifier) -> Void = { _ in }

  func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {
    onStart(ObjectIdentifier(utterance))
  }
}
#else
/// No speech on this platform: the model shows the lines in the bubble only.
@MainActor
final class KidsVoice {
  var onLineStarted: @MainActor (SpokenLine) -> Void = { _ in }
  var isAvailable: Bool { false }
  func speak(_ line: SpokenLine) {}
  func stop() {}
}
#endif

// MARK: - Sound effects

/// The short effects (tap_wood, success_chime, …) at the effects channel's 0.7 volume, from audio files named
/// like `SoundEffect.rawValue` in the app bundle. A missing file is silence, never an error: the assets come in
/// a later phase.
@MainActor
final class KidsSoundPlayer {
  /// The effects channel's volume.
  static let volume: Float = 0.7
  private static let extensions = ["m4a", "caf", "wav", "mp3"]

  #if canImport(AVFoundation)
  private var players: [SoundEffect: AVAudioPlayer] = [:]
  #endif

  func play(_ effect: SoundEffect) {
    #if canImport(AVFoundation)
    guard let player = player(for: effect) else { return }
    player.currentTime = 0
    player.play()
    #endif
  }

  #if canImport(AVFoundation)
  private func player(for effect: SoundEffect) -> AVAudioPlayer? {
    if let player = players[effect] { return player }
    let url = Self.extensions.lazy.compactMap { Bundle.main.url(forResource: effect.rawValue, withExtension: $0) }.first
    guard let url, let player = try? AVAudioPlayer(contentsOf: url) else { return nil }
    player.volume = Self.volume
    player.prepareToPlay()
    players[effect] = player
    return player
  }
  #endif
}

// MARK: - Haptics

/// Haptic feedback where the device has it (iPhone, iPad); nothing elsewhere.
@MainActor
struct KidsHaptics {
  enum Weight {
    case light, medium, heavy
  }

  func play(_ weight: Weight) {
    #if os(iOS)
    let style: UIImpactFeedbackGenerator.FeedbackStyle =
      switch weight {
      case .light: .light
      case .medium: .medium
      case .heavy: .heavy
      }
    UIImpactFeedbackGenerator(style: style).impactOccurred()
    #endif
  }
}

// MARK: - Connectivity

/// Reports whether the device is online (YouTube needs it; uploaded videos do not). Without the Network
/// framework it reports nothing and the model stays "online", so the machine's own checks decide.
// Unchecked: its only state is the path monitor, which is thread-safe and never replaced.
final class ConnectivityMonitor: @unchecked Sendable {
  #if canImport(Network)
  private let monitor = NWPathMonitor()
  #endif

  /// Starts watching; `onChange` runs on a background queue with the new state.
  init(onChange: @escaping @Sendable (Bool) -> Void) {
    #if canImport(Network)
    monitor.pathUpdateHandler = { path in
      onChange(path.status == .satisfied)
    }
    monitor.start(queue: DispatchQueue(label: "Waldabenteuer.connectivity", qos: .utility))
    #endif
  }

  deinit {
    #if canImport(Network)
    monitor.cancel()
    #endif
  }
}
#endif
