import CCairo
import Synchronization

/// The FreeType faces of the report fonts: one face per file and index for the whole process,
/// opened on first use and never closed (see ``FontConfiguration`` for why Cairo must not open
/// and close them itself).
///
/// One face per file matters beyond memory: Cairo groups the glyphs a PDF embeds by face, so the
/// same file reached through ``FontConfiguration/report`` and ``FontConfiguration/machine``
/// with two faces would be embedded twice.
final class FontFaces: @unchecked Sendable {
    /// The process's faces.
    static let shared = FontFaces()

    /// The FreeType library and the faces opened with it, by index and file. FreeType's library is
    /// not thread-safe for opening faces: both are used under the mutex only.
    private struct State: @unchecked Sendable {
        var library: FT_Library?
        var faces: [FaceKey: FT_Face] = [:]
    }

    private struct FaceKey: Hashable {
        var file: String
        var index: Int32
    }

    private let state: Mutex<State>

    private init() {
        var library: FT_Library?
        if FT_Init_FreeType(&library) != 0 { library = nil }
        state = Mutex(State(library: library))
    }

    deinit {
        state.withLock { state in
            for face in state.faces.values { FT_Done_Face(face) }
            if let library = state.library { FT_Done_FreeType(library) }
        }
    }

    /// The face of font `index` in `file`, if one was opened already.
    func existingFace(file: String, index: Int32) -> FT_Face? {
        state.withLock { $0.faces[FaceKey(file: file, index: index)] }
    }

    /// The face of font `index` in `file` (fontconfig's `FC_INDEX`, named instances included);
    /// nil when FreeType cannot open it.
    func face(file: String, index: Int32) -> FT_Face? {
        state.withLock { state in
            let key = FaceKey(file: file, index: index)
            if let face = state.faces[key] { return face }
            guard let library = state.library else { return nil }
            var face: FT_Face?
            guard FT_New_Face(library, file, FT_Long(index), &face) == 0, let face else { return nil }
            state.faces[key] = face
            return face
        }
    }
}
