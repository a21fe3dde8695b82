import Foundation
import ReceptionCore

extension ChatEngine {
    /// Spec 7.17: the cached names and photos, restored when the engine starts (visible before any answer).
    @_optimize(size) func restoreTeam() {
        team.restore(storing("load team profiles") { try $0.teamProfiles() } ?? [])
    }

    /// Spec 3.6 / 3.7: a history answer replaces the team map, a page merges into it; then the photos it wants are
    /// fetched and the cache is saved.
    @inline(never) @_optimize(size) func applyTeam(_ members: [TeamMember]?, replacing: Bool) {
        switch team.apply(members, replacing: replacing) {
        case .none: return
        case .photosWanted: break
        case .profiles: saveTeam()
        }
        fetchTeamPhotos()
    }

    /// Starts one download per photo `Team` wants fetched now.
    @inline(never) @_optimize(size) func fetchTeamPhotos() {
        for request in team.photosToFetch {
            let epoch = team.epoch
            let service = self.service
            team.downloadStarted(request, Task { [weak self] in
                do throws(ReceptionError) {
                    let data = try await service.teamPhoto(url: request.url)
                    await self?.teamPhotoLoaded(request, data: data, epoch: epoch)
                } catch {
                    await self?.teamPhotoFailed(request, error: error, epoch: epoch)
                }
            })
        }
    }

    @inline(never)
    @_optimize(size) private func teamPhotoLoaded(_ request: TeamRoster.PhotoRequest, data: Data, epoch: Int) {
        // A chat reset, logout or shutdown since the download started: a late photo is not written anywhere.
        guard !isShutDown, team.downloadEnded(request, epoch: epoch) else { return }
        if team.photoLoaded(request, data: data) {
            saveTeam()
            publish()
        }
        // The member may want a newer key by now.
        fetchTeamPhotos()
    }

    @_optimize(size)
    @inline(never) private func teamPhotoFailed(_ request: TeamRoster.PhotoRequest, error: ReceptionError, epoch: Int) {
        guard !isShutDown, team.downloadEnded(request, epoch: epoch),
              error.code != ReceptionError.Code.cancelled else { return }
        logger.write(.info, "team photo not loaded (\(error.code), status \(error.status))")
        if team.photoFailed(request, tooLarge: error.code == ReceptionError.Code.imageTooLarge) { fetchTeamPhotos() }
    }

    /// Spec 7.12 / 7.15: a chat reset (and the end of the session) clears the team; downloads still running are
    /// cancelled, and one that finishes anyway is dropped by the epoch check.
    @_optimize(size) func clearTeam() { team.clear() }

    @_optimize(size) private func saveTeam() {
        let profiles = team.roster.profiles
        storing("save team profiles") { try $0.saveTeamProfiles(profiles) }
    }
}
