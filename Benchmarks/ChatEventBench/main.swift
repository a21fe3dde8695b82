// ChatEventBench (issue 53): the main actor's work per chat event, in a chat of 50, 500 and 5,000 messages
// (`swift run -c release ChatEventBench`; `make bench`). A real ChatEngine (over BenchService, a ConversationService
// of this benchmark's own; an in-memory store; a manual clock) publishes what each event changes; this main actor
// applies every publication to a ChatModel and reads the screen's transcript (`transcriptSlots`), timing it by the
// main thread's processor clock and counting the rows built; each event once settled (the engine's work for it
// ended, 30 ms passed) and once back to back (right after the engine's pass over the transcript). The baseline,
// in the same run on the same publications, is what the chat did before issue 53 for each one: compare the
// published transcript with the one held (a distinct array, as the engine then built a new one per publication)
// and, when it differs, build every row again (`ChatPresentation`). Every size runs CHAT_EVENT_BENCH_ROUNDS times
// (default 3), the sizes in turn, so the machine's drift during the run reaches them nearly alike.
import Conversation
import Foundation
import ReceptionCore
import ReceptionTesting

/// CHAT_EVENT_BENCH_SIZES (comma-separated) replaces the sizes, for a profiler's run of one size.
let sizes = ProcessInfo.processInfo.environment["CHAT_EVENT_BENCH_SIZES"].map {
    $0.split(separator: ",").compactMap { Int($0) }
} ?? [50, 500, 5_000]
let appearance = ChatAppearance()
/// The main actor's own processor time (this thread's CPU clock): what the work costs the main thread, without the
/// time the scheduler gives the engine's threads or other processes on these shared cores.
enum ThreadTimer {
    static func measure(_ work: () -> Void) -> Duration {
        let start = now()
        work()
        return now() - start
    }

    private static func now() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
let timer = ThreadTimer.self

/// The figures of one event kind at one size: main-actor microseconds and rows built per event.
struct Figures {
    var newMicros: [Double] = []
    var newRows: [Int] = []
    var oldMicros: [Double] = []
    var oldRows: [Int] = []

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    static func mean(_ values: [Int]) -> Double { values.isEmpty ? .nan : Double(values.reduce(0, +)) / Double(values.count) }
}

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// One chat of `size` messages: the engine, the model under test and the baseline's state.
@MainActor
final class Chat {
    let clock = ManualClock()
    let service: BenchService
    let engine: ChatEngine
    let model: ChatModel
    let inbox = Inbox()
    var figures: [String: Figures] = [:]

    /// Whether each event is measured once the engine's work for it has ended and the machine had 30 ms to
    /// itself (events in an app are that far apart at least), or back to back, right after the engine's pass.
    let settles: Bool

    init(size: Int, settles: Bool) async {
        self.settles = settles
        let cooldowns = CooldownBook(now: clock.now)
        service = BenchService(cooldowns: cooldowns, clock: clock)
        await service.addReplies(size) { "Reply \($0): your order ships on Monday, see https://example.com/orders/\($0)" }
        let store = InMemoryMessageStore(scope: StorageScope(appID: "app_bench", generation: "g1"))
        try? store.updateSessionState { $0.hasStartedChat = true }
        engine = ChatEngine(ChatEngine.Dependencies(
            service: service, store: store, images: BenchImages(), cooldowns: cooldowns, clock: clock,
            ids: IncrementingIDGenerator(), random: FixedRandomSource(), logger: .silent))
        model = ChatModel(engine: engine)
        await engine.start()
        await engine.addObserver(inbox.observer())
        await engine.setVisible(true)
        guard await until({ self.inbox.newest?.messages.count == size }), await until({ await self.service.streaming })
        else { fail("the opening load of \(size) messages did not arrive") }
        apply(untimed: inbox.take())
    }

    /// Yields until `condition` holds (bounded); returns whether it held.
    func until(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<2_000_000 {
            if await condition() { return true }
            await Task.yield()
        }
        return false
    }

    func fail(_ why: String) -> Never {
        print("ChatEventBench: \(why)")
        exit(1)
    }

    /// Waits until the engine has nothing running, so its own work (off the main actor) does not share the
    /// machine with the timed main-actor work.
    func engineIdle() async {
        for _ in 0..<3 {
            await engine.removeObserver(.max)
            for _ in 0..<20 { await Task.yield() }
        }
        if settles { try? await Task.sleep(for: .milliseconds(30)) }
    }

    /// The publications in order, each with the event it belongs to (`nil`: none measured), for the baseline,
    /// which replays them after the model's run so that its whole rebuilds do not leave the caches cold for it.
    var replay: [(kind: String?, snapshots: [ChatSnapshot])] = []

    /// Applies publications that belong to no measured event.
    func apply(untimed snapshots: [ChatSnapshot]) {
        for snapshot in snapshots {
            model.apply(snapshot)
            _ = model.transcriptSlots(appearance: appearance)
        }
        replay.append((nil, snapshots))
    }

    /// The rows as the chat built them before issue 53: all of them.
    func wholeRows(_ snapshot: ChatSnapshot) -> [MessageRow] {
        ChatPresentation(
            messages: snapshot.messages, composer: snapshot.composer, banner: snapshot.banner,
            agentTyping: snapshot.agentTyping, team: snapshot.team, texts: model.texts, appearance: appearance,
            now: Date()
        ).rows
    }

    /// Applies `snapshots` as one event of `kind` to the model, timing it.
    func measure(_ kind: String, _ snapshots: [ChatSnapshot]) {
        var figure = figures[kind] ?? Figures()
        var time = Duration.zero, rows = 0
        for snapshot in snapshots {
            let built = model.rowsBuilt
            time += timer.measure {
                model.apply(snapshot)
                _ = model.transcriptSlots(appearance: appearance)
            }
            rows += model.rowsBuilt - built
        }
        figure.newMicros.append(micros(time))
        figure.newRows.append(rows)
        figures[kind] = figure
        replay.append((kind, snapshots))
    }

    /// The baseline over the same publications: compare the transcript with the one held (a distinct array, as
    /// the engine used to build a new one per publication) and, when it changed, build every row.
    func runBaseline() {
        var held: [ChatMessage] = []
        for (kind, snapshots) in replay {
            var time = Duration.zero, rows = 0
            for snapshot in snapshots {
                time += timer.measure {
                    if held != snapshot.messages { rows += wholeRows(snapshot).count }
                }
                held = snapshot.messages.map { $0 }
            }
            guard let kind else { continue }
            figures[kind]?.oldMicros.append(micros(time))
            figures[kind]?.oldRows.append(rows)
        }
    }

    /// 20 keystrokes, one publication each.
    func keystrokes() async {
        var draft = ""
        for character in "Where is my parcel??" {
            draft.append(character)
            await engine.setDraft(draft)
            await engineIdle()
            measure("keystroke", inbox.take())
        }
        await engine.setDraft("")
        apply(untimed: inbox.take())
    }

    /// 10 agent replies, each fetched after a stream signal: every publication until it shows.
    func incomingMessages() async {
        for _ in 0..<10 {
            let count = model.messages.count
            await service.addReplies(1) { "A new reply \($0)" }
            await service.signalChanged()
            guard await until({ self.inbox.newest?.messages.count == count + 1 }) else { fail("no reply arrived") }
            await engineIdle()
            measure("incoming message", inbox.take())
        }
    }

    /// Photo messages whose uploads move in steps: each publication that moves a progress is one step. One upload
    /// gives only a few steps, so ten are sent, one after the other, for a median of as many samples as the other
    /// events have.
    func uploadProgress() async {
        for round in 0..<10 {
            await engine.addPhoto(Data([1, UInt8(round)]))
            await engine.setDraft("receipt \(round)")
            apply(untimed: inbox.take())
            let count = model.messages.count
            _ = await engine.send()
            guard await until({
                self.inbox.newest.map { $0.messages.count == count + 1 && $0.messages.last?.status == .sent } ?? false
            }) else { fail("the photo message was not sent") }
            await engineIdle()
            var progress: Double? = nil
            for snapshot in inbox.take() {
                let now = snapshot.messages.last?.uploadProgress
                if let before = progress, let now, now != before {
                    measure("upload progress step", [snapshot])
                } else {
                    apply(untimed: [snapshot])
                }
                progress = now
            }
        }
    }

    /// A refused send counting down its automatic resend (spec 6.3.5): each one-second tick's publication.
    func cooldownTicks() async {
        await service.refuseSends(1)
        await engine.setDraft("held by a wait")
        _ = await engine.send()
        guard await until({ self.inbox.newest?.messages.last?.status == .notDelivered }) else { fail("no refusal") }
        apply(untimed: inbox.take())
        for _ in 0..<10 {
            // The ticker sleeps on the manual clock by now.
            await engineIdle()
            let version = inbox.newest?.version ?? model.version
            await clock.advance(by: .seconds(1))
            guard await until({ (self.inbox.newest?.version ?? 0) > version }) else { fail("no tick") }
            await engineIdle()
            measure("cooldown tick", inbox.take())
        }
    }
}

print("ChatEventBench: main-actor time and rows built per chat event, release build, median of each event's runs")
print("  time:     the main thread's own processor time (CLOCK_THREAD_CPUTIME_ID), in microseconds")
print("  new:      ChatModel.apply of the event's publications + the screen's transcriptSlots (rows kept in slots)")
print("  baseline: the pre-issue-53 work on the same publications: compare the whole transcript, and when it")
print("            changed build every row again (ChatPresentation), as ChatModel and the screen did per event")
print("  settled:  each event measured once the engine's own work for it ended and 30 ms passed (events in an app")
print("            are at least a frame apart); back to back: right after the engine's pass over the transcript,")
print("            which still compares every message on its own actor and leaves the shared caches cold")
let kinds = ["keystroke", "incoming message", "upload progress step", "cooldown tick"]

func cell(_ value: Double, _ format: String) -> String { String(format: format, value) }

/// CHAT_EVENT_BENCH_ROUNDS: how many times every size runs (default 3). The sizes take turns, in the other order
/// each round (50, 500, 5,000, then 5,000, 500, 50, ...), so a drift of the shared machine during the run reaches
/// the sizes nearly alike (exactly with an even number of rounds); each size's median is taken over the events of
/// all its rounds.
let rounds = max(1, ProcessInfo.processInfo.environment["CHAT_EVENT_BENCH_ROUNDS"].flatMap { Int($0) } ?? 3)
print("  rounds:   \(rounds), the sizes in turn, in the other order each round; medians over all rounds' events")

extension Figures {
    mutating func add(_ other: Figures) {
        newMicros += other.newMicros
        newRows += other.newRows
        oldMicros += other.oldMicros
        oldRows += other.oldRows
    }
}

for settles in [true, false] {
    var results: [Int: [String: Figures]] = [:]
    /// Per round, the last size's median over the first's, per event: the spread of the ratio.
    var roundRatios: [String: [Double]] = [:]
    for round in 0..<rounds {
        var roundResults: [Int: [String: Figures]] = [:]
        for size in round % 2 == 0 ? sizes : sizes.reversed() {
            let chat = await Chat(size: size, settles: settles)
            await chat.keystrokes()
            await chat.incomingMessages()
            await chat.uploadProgress()
            await chat.cooldownTicks()
            await chat.engine.shutdown()
            if ProcessInfo.processInfo.environment["CHAT_EVENT_BENCH_NO_BASELINE"] == nil { chat.runBaseline() }
            roundResults[size] = chat.figures
            for (kind, figure) in chat.figures { results[size, default: [:]][kind, default: Figures()].add(figure) }
        }
        guard let first = sizes.first, let last = sizes.last, first != last else { continue }
        for kind in kinds {
            let small = roundResults[first]?[kind] ?? Figures(), large = roundResults[last]?[kind] ?? Figures()
            roundRatios[kind, default: []].append(Figures.median(large.newMicros) / Figures.median(small.newMicros))
        }
    }
    print("")
    print(settles ? "== settled (the figure issue 53 holds)" : "== back to back")
    print("event                  messages   new µs  new rows   baseline µs  baseline rows")
    for kind in kinds {
        for size in sizes {
            let figure = results[size]?[kind] ?? Figures()
            print(
                kind.padding(toLength: 22, withPad: " ", startingAt: 0), String(format: "%8d", size),
                cell(Figures.median(figure.newMicros), "%8.1f"), cell(Figures.mean(figure.newRows), "%9.1f"),
                cell(Figures.median(figure.oldMicros), "%13.1f"), cell(Figures.mean(figure.oldRows), "%14.1f"))
        }
    }
    guard let first = sizes.first, let last = sizes.last, first != last else { continue }
    print("")
    print("\(last) / \(first) (time)".padding(toLength: 22, withPad: " ", startingAt: 0) + "   new     baseline   new, each round")
    for kind in kinds {
        let small = results[first]?[kind] ?? Figures(), large = results[last]?[kind] ?? Figures()
        print(
            kind.padding(toLength: 22, withPad: " ", startingAt: 0),
            cell(Figures.median(large.newMicros) / Figures.median(small.newMicros), "%5.2f×"),
            cell(Figures.median(large.oldMicros) / Figures.median(small.oldMicros), "%10.1f×"),
            "  " + (roundRatios[kind] ?? []).map { cell($0, "%.2f×") }.joined(separator: " "))
    }
}
