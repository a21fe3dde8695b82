import Foundation
import ReceptionCore

extension ChatEngine {
    /// The bytes of the confirmed photo `attachmentID` of the transcript, for a bubble or the full-screen viewer
    /// (spec 3.18), fetched once (issue 39): the session's photo cache (`Dependencies.photos`) answers first, and
    /// what is downloaded is kept there, as is what this device uploaded, under its attachment ID, when the message
    /// is confirmed (`keepUploadedPhotos`). So a second view, the viewer, a rotation or a relaunch make no request,
    /// and a photo just sent is never downloaded.
    ///
    /// On a miss its signed link is downloaded with a plain GET; when the service answers 403 the link has
    /// expired, so the attachment is resolved again with `GET attachments/<id>` (spec 3.15) and downloaded once
    /// more. A link known to have expired is resolved before any download, loads waiting on the same expiry share
    /// one resolution, and the fresh link is kept in the transcript and the cache for later loads and launches.
    ///
    /// Throws `invalid_input` for an ID that no message carries, `http_error` with the status when the download
    /// fails (show the photo as failed with Retry: calling again resolves again), or the resolution's error.
    @inline(never) @_optimize(size) public func photo(_ attachmentID: String) async throws(ReceptionError) -> Data {
        let link = try currentLink(attachmentID)
        let epoch = links.epoch
        let keeping = photoKeeper.epoch
        let key = "\(epoch)/\(attachmentID)"
        // A download of this photo already in flight (its tile and the viewer at once) is shared, not repeated;
        // looked for before the cache read and again after it, which another load may have overlapped.
        if photoDownloads[key] != nil { return try await join(key) }
        // The cache is read on the keeper, off this actor: a file read and its SHA-256 never hold up the chat.
        if let kept = await photoKeeper.photo(for: attachmentID) {
            guard !isShutDown, links.epoch == epoch else { throw .cancelled }
            return kept
        }
        if photoDownloads[key] != nil { return try await join(key) }
        let task = Task { () -> Result<Data, ReceptionError> in
            do throws(ReceptionError) {
                let data = try await self.download(attachmentID, link: link)
                // A chat reset (or the session's end) meanwhile: the photo is no longer the transcript's.
                if !self.isShutDown, self.links.epoch == epoch {
                    await self.photoKeeper.keep(data, for: attachmentID, epoch: keeping)
                }
                return .success(data)
            } catch {
                return .failure(error)
            }
        }
        photoDownloads[key] = PhotoDownload(task: task, waiters: 1)
        return try await wait(for: task, key: key)
    }

    /// Another load of a photo whose download is in flight waits for it.
    @inline(never) @_optimize(size) private func join(_ key: String) async throws(ReceptionError) -> Data {
        guard let task = photoDownloads[key]?.task else { throw .cancelled }
        sharedPhotoDownloads += 1
        photoDownloads[key]?.waiters += 1
        return try await wait(for: task, key: key)
    }

    /// Waits for the download `task` as one of its loads. A load whose task is cancelled (its tile scrolled away)
    /// leaves; the download itself, and its network request, is cancelled once every load waiting for it has left.
    @inline(never) @_optimize(size) private func wait(
        for task: Task<Result<Data, ReceptionError>, Never>, key: String
    ) async throws(ReceptionError) -> Data {
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            Task { await self.loadLeft(key, task) }
        }
        if photoDownloads[key]?.task == task { photoDownloads[key] = nil }
        if Task.isCancelled { throw .cancelled }
        return try result.get()
    }

    /// A load waiting for the download `task` was cancelled.
    @inline(never)
    @_optimize(size) private func loadLeft(_ key: String, _ task: Task<Result<Data, ReceptionError>, Never>) {
        guard var download = photoDownloads[key], download.task == task else { return }
        download.waiters -= 1
        if download.waiters > 0 {
            photoDownloads[key] = download
        } else {
            task.cancel()
            photoDownloads[key] = nil
        }
    }

    /// Spec 3.8: the photos of own messages the service confirmed (`Transcript.Merge.uploadedPhotos`) are kept
    /// under their attachment IDs, from the prepared JPEGs this device uploaded, so they are never downloaded. The
    /// writes are handed to the keeper, which makes them before its next read.
    @_optimize(size) func keepUploadedPhotos(_ photos: [Transcript.UploadedPhoto]) {
        photoKeeper.keepLater(photos.map { ($0.attachmentID, $0.jpeg) }, epoch: photoKeeper.epoch)
    }

    /// Makes the photo cache writes still pending (tests, before they reopen the cache).
    @_optimize(size) func photoWritesSettled() async {
        await photoKeeper.settled()
    }

    /// Downloads `attachmentID` from `link`, resolving an expired link first or after a 403 (spec 3.15, 3.18).
    @_optimize(size)
    @inline(never)
    private func download(_ attachmentID: String, link current: String) async throws(ReceptionError) -> Data {
        var link = current
        if links.hasExpired(attachmentID, link: link) {
            link = try await resolve(attachmentID, expired: link)
        }
        do {
            return try await fetch(link)
        } catch {
            guard error.isExpiredLink, !isShutDown else { throw error }
            links.expire(attachmentID, link: link)
        }
        let fresh = try await resolve(attachmentID, expired: link)
        do {
            return try await fetch(fresh)
        } catch {
            // Spec 3.18: once more only. The fresh link is remembered as expired, so Retry resolves again.
            if error.isExpiredLink, !isShutDown { links.expire(attachmentID, link: fresh) }
            throw error
        }
    }

    /// The link the transcript holds for `attachmentID`.
    @inline(never) @_optimize(size) private func currentLink(_ attachmentID: String) throws(ReceptionError) -> String {
        guard !isShutDown else { throw .cancelled }
        for message in messages {
            if let attachment = message.attachments.first(where: { $0.id == attachmentID }) { return attachment.url }
        }
        throw ReceptionError(code: ReceptionError.Code.invalidInput)
    }

    /// One plain GET of a signed link.
    @_optimize(size) private func fetch(_ link: String) async throws(ReceptionError) -> Data {
        guard let url = URL(string: link) else { throw ReceptionError(code: ReceptionError.Code.invalidResponse) }
        return try await service.attachmentPhoto(url: url)
    }

    /// A link for `attachmentID` to use instead of its expired `link`: the one the transcript holds now when a
    /// history answer or another load already replaced it, else the answer of the one resolution for this expiry.
    @inline(never) @_optimize(size)
    private func resolve(_ attachmentID: String, expired link: String) async throws(ReceptionError) -> String {
        let current = try currentLink(attachmentID)
        if current != link, !links.hasExpired(attachmentID, link: current) { return current }
        let started = links.epoch
        let task: Task<AttachmentLinks.Answer, Never>
        if let running = links.resolution(of: attachmentID, replacing: link) {
            task = running
        } else {
            let service = self.service
            let epoch = links.epoch
            task = Task { [weak self] in
                let answer: AttachmentLinks.Answer
                do throws(ReceptionError) {
                    answer = .success(try await service.attachment(id: attachmentID))
                } catch {
                    answer = .failure(error)
                }
                await self?.resolutionEnded(attachmentID, answer, epoch: epoch)
                return answer
            }
            links.resolutionStarted(attachmentID, replacing: link, task)
        }
        switch await task.value {
        case .success(let attachment):
            // A chat reset since: the photo is no longer in the transcript.
            guard !isShutDown, links.epoch == started else { throw .cancelled }
            return attachment.url
        case .failure(let error):
            throw error
        }
    }

    /// Spec 3.15: the fresh attachment replaces its expired copy in every message carrying it, in memory and in the
    /// cache. A resolution that started before a chat reset (or the end of the session) writes nothing.
    @inline(never) @_optimize(size)
    private func resolutionEnded(_ attachmentID: String, _ answer: AttachmentLinks.Answer, epoch: Int) {
        guard !isShutDown else { return }
        let fresh = try? answer.get()
        guard links.resolutionEnded(attachmentID, epoch: epoch, resolved: fresh != nil) else { return }
        guard let fresh else {
            if case .failure(let error) = answer {
                logger.write(.info, "attachment not resolved (\(error.code), status \(error.status))")
            }
            return
        }
        let changed = transcript.replaceAttachment(fresh)
        guard !changed.isEmpty else { return }
        storing("save resolved attachment") { try $0.save(changed) }
        publish()
    }
}

extension ReceptionError {
    /// Spec 3.18: a signed link's download answered 403, so the link expired.
    @_optimize(size) var isExpiredLink: Bool { code == Code.httpError && status == 403 }
}

/// One photo download in flight and how many loads wait for it (`ChatEngine.photo(_:)`).
struct PhotoDownload: Sendable {
    let task: Task<Result<Data, ReceptionError>, Never>
    var waiters: Int
}
