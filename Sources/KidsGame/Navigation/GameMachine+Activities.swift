import Foundation

extension GameMachine {
  /// Rätsel suggests switching between its two games after this many levels.
  static let raetselSuggestionEvery = 3

  /// Starts the next level of `game` for the active child (level = completed levels + 1).
  mutating func startLevel(of game: SubActivity) -> [GameEffect] {
    guard let player = activePlayer else { return [] }
    let level = player.completedLevels(in: game) + 1
    let round: ActivityRound
    var effects: [GameEffect] = []
    switch game {
    case .wuerfel:
      round = .dice(DiceRound())
    case .waehleDieZahl:
      let range = player.difficulty(in: game.activity).numberRange
      let target = NumberChoiceRound.nextTarget(after: navigation.lastNumberTarget, in: range, using: &random)
      let mode = data.settings.parentSettings.settings(for: player.id).numberChoiceMode
      navigation.lastNumberTarget = target
      round = .numberChoice(NumberChoiceRound(target: target, mode: mode))
      // In trace mode the number to trace glows gold; in tap mode that would give the answer away.
      if mode == .trace { effects.append(.highlightNumber(target)) }
    case .puzzleMatching:
      let layout = PuzzleMatchingRound.layout(
        level: level, difficulty: player.difficulty(in: game.activity).level,
        largestSize: navigation.largestPuzzleGrid ?? PuzzleMatchingRound.largestSize)
      round = .puzzle(PuzzleMatchingRound(layout: layout, using: &random))
    case .labyrinth:
      let tolerance = player.difficulty(in: game.activity).labyrinthTolerance
      round = .labyrinth(LabyrinthRound(maze: Labyrinth(tolerance: tolerance, using: &random)))
    }
    let context = ActivityContext(game: game, level: level, round: round)
    navigation.activity = context
    let transition = move(to: .playing(game.activity, game))
    // A celebration earned when the level-complete moment was left comes first; Weiter starts a level.
    if let pending = navigation.pendingCelebration, pending.player == player.id {
      navigation.pendingCelebration = nil
      if pending.coins == player.coins { return [transition, .levelStarted(game, level: level)] + celebrate(coins: player.coins) }
    }
    return [transition, .levelStarted(game, level: level)] + effects + startLines(for: context)
  }

  /// The celebration overlay over the level under way, with its fanfare, confetti and milestone line.
  private mutating func celebrate(coins: Int) -> [GameEffect] {
    navigation.pendingCelebration = nil
    var effects = [move(to: .celebrationOverlay), .showCelebration(coins: coins), .sound(.celebrationFanfare), .confetti]
    if let milestone = Narration.milestone(coins: coins) { effects += speak(milestone, LineValues(x: coins)) }
    return effects
  }

  private func startLines(for context: ActivityContext) -> [GameEffect] {
    // Rätsel suggests the other game every third level (the child may stay: it is only a suggestion).
    if context.activity == .raetsel, context.level > 1, (context.level - 1).isMultiple(of: Self.raetselSuggestionEvery) {
      return speak(context.game == .puzzleMatching ? .suggestLabyrinth : .suggestPuzzle)
    }
    return switch context.game {
    case .wuerfel: speak(.wuerfelStart)
    // In trace mode the child draws the number, so the narrator asks for that, not for a tap.
    case .waehleDieZahl: speak(isTracing(context) ? .waehleTraceStart : .waehleStart, LineValues(n: context.askedNumber))
    case .puzzleMatching: speak(.puzzleStart)
    case .labyrinth: speak(.labyrinthStart)
    }
  }

  private func isTracing(_ context: ActivityContext) -> Bool {
    if case .numberChoice(let choice) = context.round { return choice.mode == .trace }
    return false
  }

  mutating func handlePlaying(_ event: GameEvent) -> [GameEffect] {
    let effects = handleLevelInput(event)
    // An accepted roll, tap or stroke times the level for the difficulty rules (a refusal changes nothing).
    if let date = event.inputDate, effects.first?.refusal == nil, case .playing = state, var context = navigation.activity {
      context.firstInputAt = context.firstInputAt ?? date
      context.lastInputAt = date
      navigation.activity = context
    }
    return effects
  }

  private mutating func handleLevelInput(_ event: GameEvent) -> [GameEffect] {
    guard var context = navigation.activity else { return refuse(.notAllowedHere, event) }
    switch (event, context.round) {
    case (.rollDie(let date), .dice(var dice)):
      let outcome = dice.roll(at: date, using: &random)
      guard case .rolled(let face) = outcome else { return refusal(outcome, event) }
      context.round = .dice(dice)
      context.idlePromptsGiven = 0
      navigation.activity = context
      var effects: [GameEffect] = []
      effects.reserveCapacity(2)
      effects.append(.dieRolled(face))
      // Spoken once the die has stopped tumbling.
      appendLines(.wuerfelRolled, LineValues(n: face), delay: DiceRound.tumbleSeconds, to: &effects)
      return effects

    case (.tapNumber(let number, let date), .dice(var dice)):
      let outcome = dice.tap(number, at: date)
      switch outcome {
      case .correct: return succeed(at: date)
      case .wrong(let tapped, let answer):
        context.round = .dice(dice)
        context.idlePromptsGiven = 0
        navigation.activity = context
        return [.sound(.gentleBoop), .highlightNumber(answer)] + speak(.wrongNumber, LineValues(x: tapped))
      default: return refusal(outcome, event)
      }

    case (.tapNumber(let number, let date), .numberChoice(var choice)):
      let outcome = choice.tap(number, at: date)
      switch outcome {
      case .correct: return succeed(at: date)
      case .wrongTap(let tapped, let answer):
        context.round = .numberChoice(choice)
        context.idlePromptsGiven = 0
        navigation.activity = context
        return [.sound(.gentleBoop), .showAnswer(answer, seconds: NumberChoiceRound.answerShownSeconds)]
          + speak(.wrongNumber, LineValues(x: tapped))
      default: return refusal(outcome, event)
      }

    case (.traceStroke(let points, let date), .numberChoice(var choice)):
      let outcome = choice.addStroke(points)
      switch outcome {
      case .correct: return succeed(at: date)
      case .traceContinues(let coverage):
        context.round = .numberChoice(choice)
        context.idlePromptsGiven = 0
        navigation.activity = context
        return [.traceProgress(coverage: coverage)]
      case .traceRetry:
        context.round = .numberChoice(choice)
        context.idlePromptsGiven = 0
        navigation.activity = context
        return [.sound(.gentleBoop), .clearTrace] + speak(.traceRetry, LineValues(n: choice.target))
      default: return refusal(outcome, event)
      }

    case (.rollDie, .numberChoice), (.traceStroke, .dice):
      return refuse(.wrongMode, event)

    case (.paintCell(let cell, let colour, let date), .puzzle(var puzzle)):
      let mistakesBefore = puzzle.mistakes
      let outcome = puzzle.paint(cell, colour, at: date)
      var effects = puzzleStep(outcome, puzzle, &context, event, at: date)
      if Self.bringsHint(mistakesBefore, puzzle.mistakes), case .changed = outcome, let hint = puzzle.hintCell {
        effects.append(.hintCell(hint, seconds: LevelTiming.hintSeconds))
        effects += speak(.puzzleHint)
      }
      return effects

    case (.eraseCell(let cell, let date), .puzzle(var puzzle)):
      let outcome = puzzle.erase(cell, at: date)
      return puzzleStep(outcome, puzzle, &context, event, at: date)

    case (.traceLabyrinth(let points, let date), .labyrinth(var labyrinth)):
      guard !points.isEmpty else { return refuse(.emptyTrace, event) }
      guard points.count <= LabyrinthRound.maxPoints else { return refuse(.traceTooLong, event) }
      let verdict = labyrinth.trace(points)
      context.round = .labyrinth(labyrinth)
      context.idlePromptsGiven = 0
      navigation.activity = context
      switch verdict {
      case .reachedGoal: return succeed(at: date)
      case .leftPath, .notAtStart:
        var effects: [GameEffect] = [.sound(.gentleBoop), .clearTrace]
        if Self.bringsHint(labyrinth.misses - 1, labyrinth.misses) {
          // The third miss: instead of the same line again, Bennie shows the way through.
          let maze = labyrinth.maze
          effects.append(.showWay(maze.solution.map(maze.centre(of:)), seconds: LevelTiming.hintSeconds))
          return effects + speak(.labyrinthHint)
        }
        if case .notAtStart = verdict { return [.clearTrace] + speak(.labyrinthIdle15) }
        return effects + speak(.labyrinthOffPath)
      // Lifted on the path: nothing lost, but never silence; Bennie encourages the child to go on from START.
      case .stoppedShort: return [.clearTrace] + speak(.labyrinthStoppedShort)
      }

    case (.resetPuzzle, .puzzle(var puzzle)):
      puzzle.reset()
      context.round = .puzzle(puzzle)
      navigation.activity = context
      return [.sound(.tapWood), .save]

    case (.idle(let seconds), _):
      guard seconds.isFinite, seconds >= 0 else { return refuse(.numberOutOfRange, event) }
      // Würfel's prompts all talk about the rolled number, so they wait for the roll (Rätsel's need none).
      let number = context.askedNumber
      guard number != nil || context.activity == .raetsel,
        let trigger = IdlePrompts.due(for: context.game, idleSeconds: seconds, given: context.idlePromptsGiven)
      else { return [] }
      context.idlePromptsGiven += 1
      context.longPauses = (context.longPauses ?? 0) + 1
      navigation.activity = context
      return speak(trigger, LineValues(n: number))

    case (.back, _), (.home, _):
      // Leaving a level the child had started counts as a quit for the difficulty rules, with a kind word.
      guard let quitAt = context.lastInputAt else { return goHome() }
      updateActivePlayer { player in _ = player.updateDifficulty(in: context.activity) { $0.recordQuit(at: quitAt) } }
      return speak(.levelLeft) + goHome(greeting: false)

    default:
      return refuse(.notAllowedHere, event)
    }
  }

  /// Whether the mistake that took a level's count from `before` to `after` is the one that brings a hint.
  static func bringsHint(_ before: Int, _ after: Int) -> Bool {
    before < AdaptiveDifficulty.hintAtMistakes && after >= AdaptiveDifficulty.hintAtMistakes
  }

  /// A paint or an erase in the puzzle: the grid as it is now, or the level solved.
  private mutating func puzzleStep(
    _ outcome: PuzzleMatchingRound.Outcome, _ puzzle: PuzzleMatchingRound, _ context: inout ActivityContext, _ event: GameEvent,
    at date: Date
  ) -> [GameEffect] {
    switch outcome {
    case .refused(let reason):
      return refuse(reason, event)
    case .changed:
      context.round = .puzzle(puzzle)
      context.idlePromptsGiven = 0
      navigation.activity = context
      return [.sound(.tapWood)]
    case .solved:
      context.round = .puzzle(puzzle)
      navigation.activity = context
      return succeed(at: date)
    }
  }

  private func refusal(_ outcome: DiceRound.Outcome, _ event: GameEvent) -> [GameEffect] {
    if case .refused(let reason) = outcome { return refuse(reason, event) }
    return refuse(.notAllowedHere, event)
  }

  private func refusal(_ outcome: NumberChoiceRound.Outcome, _ event: GameEvent) -> [GameEffect] {
    if case .refused(let reason) = outcome { return refuse(reason, event) }
    return refuse(.notAllowedHere, event)
  }

  /// A level is solved: chime, a success phrase, +1 coin, save; the next step follows after 2 s. Calm on
  /// purpose: confetti belongs to the celebration overlay (every 5 coins) only.
  private mutating func succeed(at date: Date) -> [GameEffect] {
    // Only the id is held, not a copy of the record: a copy would share the record's dictionaries and make
    // the writes below copy them (the core's transition budget is 1 µs).
    guard let playerID = data.settings.lastActivePlayer, data.players.contains(where: { $0.id == playerID }),
      let context = navigation.activity
    else { return [] }
    let outcome = context.outcome(solvedAt: date)
    updatePlayer(playerID) { player in
      player.activityProgress[context.game.rawValue] = max(player.completedLevels(in: context.game), context.level)
      player.lastPlayedDate = date
      _ = player.updateDifficulty(in: context.activity) { $0.record(outcome) }
    }
    var effects: [GameEffect] = []
    effects.reserveCapacity(7)
    effects.append(.sound(.successChime))
    effects.append(.speak(Narration.success(using: &random)))
    effects.append(.sound(.coinCollect))
    if let coins = changeCoins(of: playerID, by: CoinRules.perLevel, reason: .earned) {
      effects.append(coins)
      // Shown when the level-complete moment ends; kept in case the child leaves it first.
      if case .coinsChanged(let change) = coins, CoinRules.isMilestone(change.balance) {
        navigation.pendingCelebration = PendingCelebration(player: playerID, coins: change.balance)
      }
    }
    effects.append(move(to: .levelComplete))
    effects.append(.save)
    effects.append(.schedule(.levelCompleteFinished, after: LevelTiming.nextLevelDelay))
    return effects
  }

  mutating func handleLevelComplete(_ event: GameEvent) -> [GameEffect] {
    switch event {
    case .levelCompleteFinished:
      guard let player = activePlayer else { return refuse(.noActivePlayer, event) }
      guard CoinRules.isMilestone(player.coins) else { return continueActivity() }
      return celebrate(coins: player.coins)
    case .back, .home:
      return goHome()
    default:
      return refuse(.notAllowedHere, event)
    }
  }

  mutating func handleCelebration(_ event: GameEvent) -> [GameEffect] {
    // Only "Weiter" closes the overlay.
    guard case .tapWeiter = event else { return refuse(.notAllowedHere, event) }
    guard let player = activePlayer else { return refuse(.noActivePlayer, event) }
    if isDailyLimitReached { return [.hideCelebration] + goHome() }
    guard CoinRules.canOpenTreasure(player.coins) else { return [.hideCelebration] + continueActivity() }
    navigation.activity = nil
    return [.hideCelebration, move(to: .treasureScreen)] + Narration.treasure(coins: player.coins).map(GameEffect.speak)
  }

  /// The next level of the same game, or home once today's time is used up.
  private mutating func continueActivity() -> [GameEffect] {
    guard let game = navigation.activity?.game, !isDailyLimitReached else { return goHome() }
    return startLevel(of: game)
  }
}
