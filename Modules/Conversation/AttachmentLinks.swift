import ReceptionCore

/// The signed links of confirmed photos (spec 3.15, 3.18, 4.4): which link is known to have expired, and the
/// resolutions (`GET attachments/<id>`) in flight.
///
/// A link is known to have expired once its download answered 403. The attachment object carries no expiry time
/// (spec 4.4) and a link's format is the service's own, so expiry is learnt from that answer, never guessed from
/// the link. Every load waiting on one expiry shares the one resolution; its fresh link replaces the expired one in
/// the transcript and the store (the engine does that), so later loads, and the next launch, start from it. A chat
/// reset clears everything and moves the epoch, so a resolution that started before it is never applied.
final class AttachmentLinks {
    /// What a resolution answers: the fresh attachment, or why there is none.
    typealias Answer = Result<Attachment, ReceptionError>

    private struct Resolution: Sendable {
        /// The expired link it replaces.
        let link: String
        let task: Task<Answer, Never>
    }

    /// Per attachment ID, the link that answered 403.
    private var expired: [String: String] = [:]
    /// Per attachment ID, the resolution in flight.
    private var resolutions = KeyedList<Resolution>()
    /// Bumped by a chat reset; a resolution carries the epoch it started in.
    private(set) var epoch = 0

    /// Whether `link` of attachment `id` answered 403.
    @_optimize(size) func hasExpired(_ id: String, link: String) -> Bool { expired[id] == link }

    /// The download of `link` answered 403 (spec 3.18: the link expired).
    @_optimize(size) func expire(_ id: String, link: String) { expired[id] = link }

    /// The resolution in flight that replaces `id`'s expired `link`, if one runs.
    @_optimize(size) func resolution(of id: String, replacing link: String) -> Task<Answer, Never>? {
        guard let resolution = resolutions[id], resolution.link == link else { return nil }
        return resolution.task
    }

    /// The engine started `task` to resolve `id`, whose `link` expired.
    @_optimize(size)
    func resolutionStarted(_ id: String, replacing link: String, _ task: Task<Answer, Never>) {
        resolutions[id] = Resolution(link: link, task: task)
    }

    /// The resolution of `id` that started in `epoch` ended; returns whether its answer still counts (no reset
    /// since). A fresh link means `id` has no known expired link any more.
    @inline(never) @_optimize(size) func resolutionEnded(_ id: String, epoch: Int, resolved: Bool) -> Bool {
        guard epoch == self.epoch else { return false }
        resolutions[id] = nil
        if resolved { expired[id] = nil }
        return true
    }

    /// Spec 7.12 / 7.15: a chat reset (and the end of the session) forgets every link and cancels the resolutions.
    @inline(never) @_optimize(size) func clear() {
        epoch += 1
        for resolution in resolutions.allValues { resolution.task.cancel() }
        resolutions.removeAll()
        expired = [:]
    }
}
