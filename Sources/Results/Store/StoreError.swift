/// What can be wrong with a results folder.
package enum StoreError: Error, Equatable, CustomStringConvertible {
    case notAResultsFolder(String, String)
    case malformed(String, String)
    case otherModel(String, found: Int, current: Int)
    case duplicateRun(String, String, String)
    case duplicateShard(String, String, String)
    case gap([String])
    case mismatch(String)
    case io(String, String)

    package var description: String {
        switch self {
        case let .notAResultsFolder(path, why): return "\(path): not a results folder: \(why)"
        case let .malformed(path, why): return "\(path): \(why)"
        case let .otherModel(path, found, current):
            return
                "\(path): results of model version \(found); this build's model is version \(current), so they are refused. Re-run them with 'scrollstudy run'"
        case let .duplicateRun(id, a, b):
            return "run '\(id)' is in two results folders: \(a) and \(b); each run must come from one folder"
        case let .duplicateShard(shard, a, b): return "shard \(shard) given twice: \(a) and \(b)"
        case let .gap(missing):
            return
                "shard(s) \(missing.joined(separator: ", ")) missing: pass every shard folder of the split to --results"
        case let .mismatch(why): return why
        case let .io(path, why): return "\(path): cannot write: \(why)"
        }
    }
}
