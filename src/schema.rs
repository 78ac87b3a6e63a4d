//! Provider schemas (`providers schema -json`): tells blocks from attributes and marks sensitive attributes.
