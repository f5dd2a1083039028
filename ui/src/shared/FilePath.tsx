// A file's path on one line, however narrow its place: the folder is cut short first (with an
// ellipsis), then the file name; the whole path is its tooltip. "Untitled" for a file never saved.
import { fileName } from "./view";

export function FilePath({
  path,
  testId,
  untitled = "Untitled",
}: {
  path: string | null;
  testId?: string;
  untitled?: string;
}) {
  if (path === null) {
    return (
      <code className="file-path ellipsis" data-testid={testId}>
        <span className="file-path-name ellipsis">{untitled}</span>
      </code>
    );
  }
  const name = fileName(path);
  return (
    <code className="file-path ellipsis" data-testid={testId} title={path}>
      <span className="file-path-folder ellipsis">{path.slice(0, path.length - name.length)}</span>
      <span className="file-path-name ellipsis">{name}</span>
    </code>
  );
}
