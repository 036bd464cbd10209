//! What a solver found: no solution, exactly one, or several.
//!
//! Every kind's solver returns an [`Outcome`]; it carries the first solution found and whether a
//! second one exists. It does not say how the solution was found.

/// The result of a complete search that looked for up to two solutions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<S> {
    /// The search space was exhausted without finding a solution.
    NoSolution,
    /// Exactly one solution exists.
    Unique(S),
    /// At least two solutions exist; this is the first one found.
    Several(S),
}

impl<S> Outcome<S> {
    /// The solution, if any.
    pub fn solution(&self) -> Option<&S> {
        match self {
            Outcome::NoSolution => None,
            Outcome::Unique(s) | Outcome::Several(s) => Some(s),
        }
    }

    /// Applies `f` to the solution, keeping the verdict.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Outcome<T> {
        match self {
            Outcome::NoSolution => Outcome::NoSolution,
            Outcome::Unique(s) => Outcome::Unique(f(s)),
            Outcome::Several(s) => Outcome::Several(f(s)),
        }
    }
}
