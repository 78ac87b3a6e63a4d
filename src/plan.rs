//! The plan model: typed, borrowing structs for `show -json` plan and state documents.
