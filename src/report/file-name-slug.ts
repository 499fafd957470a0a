/** A trial's name made safe for a file name: lower case, runs of anything else one `-`, at most `max` characters. */
export function fileNameSlug(name: string, max = 60): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, max) || 'trial'
  );
}
