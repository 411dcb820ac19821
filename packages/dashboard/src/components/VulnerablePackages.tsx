/** The vulnerable packages the newest report names, in columns; `level` is its heading's, 3 inside a section of its own. */
export function VulnerablePackages({ names, level = 2 }: { names: string[]; level?: 2 | 3 }) {
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby="vulnerable-title">
      <Heading id="vulnerable-title">Vulnerable packages ({names.length})</Heading>
      {names.length === 0 ? (
        <p>The newest report names no vulnerable package.</p>
      ) : (
        <ul className="packages" aria-labelledby="vulnerable-title">
          {names.map((name) => (
            <li key={name} className="mono">
              {name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
