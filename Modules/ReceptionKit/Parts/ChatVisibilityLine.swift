/// Carries the chat's openings and closings to the session in the order they happened (issue 39).
///
/// An opening first sends the device update of spec 7.2, which can take as long as the network does; a closing
/// has nothing to wait for. Without an order, a `closeChat()` during that update would reach the engine first and
/// the late opening would then leave the engine watching a chat that is not on screen: streaming, reading and
/// holding the badge at zero. So every change takes a number, the engine calls run one after another in a line,
/// and an opening whose number is no longer the newest when its update ends does not open anything.
@MainActor
struct ChatVisibilityLine {
    /// The number of the newest change.
    private(set) var generation = 0
    /// The last engine call enqueued; the next one waits for it.
    private var tail: Task<Void, Never>?

    /// A change starts: returns its number.
    @_optimize(size) mutating func changed() -> Int {
        generation &+= 1
        return generation
    }

    /// Openings whose device update ended, whether they went on to open or were dropped (tests wait for it).
    private(set) var openingsDecided = 0

    /// The device update of the opening numbered `change` ended: enqueues `open` unless a later change came.
    @inline(never) @_optimize(size) mutating func openingReady(_ change: Int, _ open: Reception.Job) {
        openingsDecided += 1
        guard change == generation else { return }
        enqueue(open)
    }

    /// Runs `work` after every call enqueued before it. The calls are the facade's jobs rather than closures, so
    /// the line's one task closure serves them all (Docs/Footprint.md, "A task closure per call site").
    @inline(never) @_optimize(size) mutating func enqueue(_ work: Reception.Job) {
        let previous = tail
        tail = Task {
            await previous?.value
            await Reception.run(work)
        }
    }

    /// Resolves once every call enqueued so far has run (tests).
    @_optimize(size) func drained() async { await tail?.value }
}
