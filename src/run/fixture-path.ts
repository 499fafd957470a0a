import path from 'node:path';

/**
 * What is wrong with a declared fixture path, judged from the text alone: it must be relative to the project
 * root and stay inside it (`../../../../etc` would copy the machine's files into every sandbox). Null when fine.
 */
export function fixturePathProblem(relative: string): string | null {
  if (typeof relative !== 'string' || relative.trim() === '') return 'give a folder path relative to the project root';
  if (path.isAbsolute(relative) || path.win32.isAbsolute(relative))
    return `"${relative}" is absolute; give a folder inside the project, relative to its root`;
  const normal = path.posix.normalize(relative.split('\\').join('/'));
  if (normal === '..' || normal.startsWith('../'))
    return `"${relative}" leads out of the project root; fixtures must be a folder inside the project`;
  return null;
}
