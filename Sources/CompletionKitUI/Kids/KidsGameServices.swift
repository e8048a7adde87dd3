#if canImport(SwiftUI)
import CompletionClient
import CompletionCore
import Foundation
import SwiftUI
#if canImport(AVFoundation)
import AVFoundation
#endif
#if canImport(Network)
import Network
#endif
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

// The platform behind the client models' small protocols: SwiftUI's animation, UIKit's haptics, the German
// voice, the sound effects and the network path. The game itself (its rules, its save, its timings) is the
// server's; these only carry out what a model asks for. The animator and the haptics serve the cryptogram
// and the challenges too, which is why they are not named after the kids' game. Each one does nothing where
// its framework is missing, so no model needs a platform check.

// MARK: - Animation

/// Runs a model's state change inside SwiftUI's `withAnimation`, or plainly while the system's Reduce Motion
/// is on (read when the change happens, so turning it on mid-game takes effect at once).
@MainActor
public final class SwiftUIStateAnimator: StateAnimating {
  private let animation: Animation

  /// An animator using `animation` for every change a model makes.
  public init(animation: Animation = .default) {
    self.animation = animation
  }

  /// Applies `change` in one animated transaction.
  public func animate(_ change: () -> Void) {
    withAnimation(Self.reducesMotion ? nil : animation) {
      change()
    }
  }

  /// Whether the system asks for less motion (a model is made before any SwiftUI environment exists).
  public static var reducesMotion: Bool {
    #if canImport(UIKit)
    UIAccessibility.isReduceMotionEnabled
    #elseif canImport(AppKit)
    NSWorkspace.shared.accessibilityDisplayShouldReduceMotion
    #else
    false
    #endif
  }

  /// The motion preference to send the server with moves, from the system setting.
  public static var systemPreference: MotionPreference {
    reducesMotion ? .reduced : .full
  }
}

// MARK: - Haptics

/// Buzzes with UIKit's feedback generators on an iPhone or iPad; silent where there are none (a Mac).
@MainActor
public final class DeviceHaptics: HapticsPlaying {
  /// Haptics for the device this runs on.
  public init() {}

  /// Gives `haptic` once.
  public func play(_ haptic: Haptic) {
    #if os(iOS)
    switch haptic {
    case .light: UIImpactFeedbackGenerator(style: .light).impactOccurred()
    case .medium: UIImpactFeedbackGenerator(style: .medium).impactOccurred()
    case .heavy: UIImpactFeedbackGenerator(style: .heavy).impactOccurred()
    case .success: UINotificationFeedbackGenerator().notificationOccurred(.success)
    case .warning: UINotificationFeedbackGenerator().notificationOccurred(.warning)
    }
    #endif
  }
}

// MARK: - Scene phase

extension AppPhase {
  /// The client's phase for SwiftUI's scene phase (the models do not import SwiftUI).
  public init(_ phase: ScenePhase) {
    switch phase {
    case .active: self = .active
    case .background: self = .background
    case .inactive: self = .inactive
    // A phase added later is treated as "still here, not in front": it pauses nothing.
    @unknown default: self = .inactive
    }
  }
}

// MARK: - Voice

#if canImport(AVFoundation)
/// The narrator and Bennie: the system's German voice at 85 % of the default rate (the script's pace). Lines
/// queue in order; a line's `delay` becomes the pause before it, and `started` runs as the voice begins it, so
/// Bennie's bubble shows the words he is saying, not the ones still waiting.
@MainActor
public final class GermanVoice: KidsSpeaking {
  /// The script's pace: 85 % of the default speech rate.
  static let rateFactor: Float = 0.85
  /// The voice's language.
  static let language = "de-DE"

  /// Made on the first line, so creating a voice (a view's init may run often) touches no audio hardware.
  private var synthesizer: AVSpeechSynthesizer?
  private let events = SpeechEvents()
  private var waiting: [ObjectIdentifier: @MainActor () -> Void] = [:]

  /// A voice that speaks nothing until asked.
  public init() {}

  /// Queues `line`; `started` runs when the voice begins it.
  public func speak(_ line: KidsLine, started: @escaping @MainActor () -> Void) {
    let synthesizer = prepared()
    let utterance = AVSpeechUtterance(string: line.text)
    utterance.voice = AVSpeechSynthesisVoice(language: Self.language)
    utterance.rate = AVSpeechUtteranceDefaultSpeechRate * Self.rateFactor
    utterance.preUtteranceDelay = line.delay
    waiting[ObjectIdentifier(utterance)] = started
    synthesizer.speak(utterance)
  }

  /// Stops at once and drops every queued line (a new screen has its own words).
  public func stop() {
    synthesizer?.stopSpeaking(at: .immediate)
    waiting.removeAll()
  }

  private func prepared() -> AVSpeechSynthesizer {
    if let synthesizer { return synthesizer }
    let made = AVSpeechSynthesizer()
    // Set before the synthesizer can call back, never changed after.
    events.onStart = { [weak self] id in
      Task { @MainActor [weak self] in self?.started(id) }
    }
    made.delegate = events
    #if os(iOS)
    // Spoken words, ducking other audio while a line plays.
    try? AVAudioSession.sharedInstance().setCategory(.playback, mode: .spokenAudio, options: [.duckOthers])
    #endif
    synthesizer = made
    return made
  }

  private func started(_ id: ObjectIdentifier) {
    waiting.removeValue(forKey: id)?()
  }
}

/// Forwards the synthesizer's callbacks (which arrive on its own queue) as Sendable identifiers.
private final class SpeechEvents: NSObject, AVSpeechSynthesizerDelegate, @unchecked Sendable {
  // Unchecked: set once on the main actor before the synthesizer exists, only read afterwards.
  var onStart: @Sendable (ObjectIdentifier) -> Void = { _ in }

  func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {
    onStart(ObjectIdentifier(utterance))
  }
}

// MARK: - Sound effects

/// The short effects the server names (`tap_wood`, `success_chime`, …) at the effects channel's 0.7 volume,
/// from audio files of that name in the app bundle. A missing file is silence, never an error.
@MainActor
public final class KidsSoundEffects: KidsSoundPlaying {
  /// The effects channel's volume.
  static let volume: Float = 0.7
  private static let extensions = ["m4a", "caf", "wav", "mp3"]

  private var players: [String: AVAudioPlayer] = [:]

  /// Sound effects from the main bundle.
  public init() {}

  /// Plays the effect `name` from its start.
  public func play(_ name: String) {
    guard let player = player(for: name) else { return }
    player.currentTime = 0
    player.play()
  }

  private func player(for name: String) -> AVAudioPlayer? {
    if let player = players[name] { return player }
    let url = Self.extensions.lazy.compactMap { Bundle.main.url(forResource: name, withExtension: $0) }.first
    guard let url, let player = try? AVAudioPlayer(contentsOf: url) else { return nil }
    player.volume = Self.volume
    player.prepareToPlay()
    players[name] = player
    return player
  }
}
#endif

// MARK: - Connectivity

/// Keeps ``WaldabenteuerModel/isOnline`` in step with the device's network path (YouTube needs it; uploaded
/// videos do not). Without the Network framework the model stays "online" and the server's answers decide.
@MainActor
public enum KidsNetworkMonitor {
  /// Updates `model.isOnline` on every path change until the calling task is cancelled (a view's `.task`).
  public static func watch(_ model: WaldabenteuerModel) async {
    for await online in pathUpdates() {
      model.isOnline = online
    }
  }

  /// Online or not, once at the start and on every change; the monitor stops when the stream ends.
  // Nonisolated: the monitor calls its handler on its own queue, so the closures made here must not belong
  // to the main actor.
  nonisolated static func pathUpdates() -> AsyncStream<Bool> {
    #if canImport(Network)
    AsyncStream { continuation in
      let watcher = PathWatcher()
      watcher.monitor.pathUpdateHandler = { path in
        continuation.yield(path.status == .satisfied)
      }
      continuation.onTermination = { _ in
        watcher.monitor.cancel()
      }
      watcher.monitor.start(queue: DispatchQueue(label: "Waldabenteuer.connectivity", qos: .utility))
    }
    #else
    AsyncStream { $0.finish() }
    #endif
  }
}

#if canImport(Network)
/// Holds the path monitor for the stream's termination handler.
// Unchecked: the monitor is thread-safe and never replaced.
private final class PathWatcher: @unchecked Sendable {
  let monitor = NWPathMonitor()
}
#endif
#endif
