/// Work run one piece after another, in the order it was handed in, so what a person did reaches the server
/// in the order they did it (a second tap waits for the first one's answer).
@MainActor
final class SerialWork {
  private var tail: Task<Void, Never>?
  private var pending = 0

  /// Runs `work` after everything handed in before it; the task ends when `work` has.
  func enqueue(_ work: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
    let previous = tail
    pending += 1
    let task = Task { @MainActor in
      await previous?.value
      await work()
      self.pending -= 1
    }
    tail = task
    return task
  }

  /// Waits until everything handed in, including work handed in while waiting, has run.
  func settled() async {
    while pending > 0, let tail {
      await tail.value
    }
  }
}
