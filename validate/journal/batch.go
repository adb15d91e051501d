package journal

// AppendBatch appends entries in one transaction, fsynced once: a bulk import, and the way
// tests and benchmarks build journals of a million records in a minute rather than an
// hour. The records are signed, chained and indexed as Append does; a refused entry
// (ErrDuplicatePayout, ErrInvalidEntry...) refuses the whole batch, nothing written. The
// terminal appends one record at a time, each durable before it acts on it.
func (j *Journal) AppendBatch(entries []Entry) error { return j.appendBatch(entries) }
