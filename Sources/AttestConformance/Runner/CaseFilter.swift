import Foundation

/// `--filter GLOB`: shell-style globs (`*`, `?`, `[...]`) over case ids, as `fnmatch(3)` reads them.
package enum CaseFilter {
    package static func matches(_ glob: String, _ id: String) -> Bool { fnmatch(glob, id, 0) == 0 }
}
