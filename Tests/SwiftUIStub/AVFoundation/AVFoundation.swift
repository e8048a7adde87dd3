// NOT AVFoundation: the speech, audio and player declarations `Sources/CompletionKitUI` uses, with Apple's
// signatures and no behaviour (see ../README.md). Code under `#if os(iOS)` (the audio session) is not
// type-checked on Linux.

@_exported import Foundation

// MARK: - Speech

public let AVSpeechUtteranceDefaultSpeechRate: Float = 0.5

public enum AVSpeechBoundary: Int, Sendable {
  case immediate, word
}

open class AVSpeechSynthesisVoice: NSObject, @unchecked Sendable {
  public init?(language languageCode: String?) { fatalError() }
}

open class AVSpeechUtterance: NSObject, @unchecked Sendable {
  public init(string: String) { fatalError() }
  open var voice: AVSpeechSynthesisVoice?
  open var rate: Float
  open var preUtteranceDelay: TimeInterval
}

/// The synthesizer's callbacks; every method is optional (an `@objc optional` requirement on Apple's side).
public protocol AVSpeechSynthesizerDelegate: NSObjectProtocol {
  func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance)
}
extension AVSpeechSynthesizerDelegate {
  public func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) {}
}

open class AVSpeechSynthesizer: NSObject {
  public override init() { fatalError() }
  weak open var delegate: (any AVSpeechSynthesizerDelegate)?
  open func speak(_ utterance: AVSpeechUtterance) {}
  @discardableResult open func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool { fatalError() }
}

// MARK: - Audio

open class AVAudioPlayer: NSObject {
  public init(contentsOf url: URL) throws { fatalError() }
  open var currentTime: TimeInterval
  open var volume: Float
  @discardableResult open func prepareToPlay() -> Bool { fatalError() }
  @discardableResult open func play() -> Bool { fatalError() }
  open func pause() {}
}

// MARK: - Video

open class AVAsset: NSObject, @unchecked Sendable {}

open class AVURLAsset: AVAsset, @unchecked Sendable {
  public init(url URL: URL, options: [String: Any]? = nil) { fatalError() }
}

open class AVPlayerItem: NSObject, @unchecked Sendable {
  public init(asset: AVAsset) { fatalError() }
}

open class AVPlayer: NSObject {
  public override init() { fatalError() }
  open func play() {}
  open func pause() {}
}

open class AVQueuePlayer: AVPlayer {
  public override init() { fatalError() }
}

open class AVPlayerLooper: NSObject {
  public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem) { fatalError() }
}
