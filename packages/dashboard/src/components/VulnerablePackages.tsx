/** The vulnerable packages the newest report names, in columns. */
export function VulnerablePackages({ names }: { names: string[] }) {
  return (
    <section aria-labelledby="vulnerable-title">
      <h2 id="vulnerable-title">Vulnerable packages ({names.length})</h2>
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
