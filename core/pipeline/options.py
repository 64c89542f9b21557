"""What a scan reads and how it compares: `ScanOptions`, validated, and the k defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

from simsift.core.document import MAX_FILE_BYTES
from simsift.core.index.plan import DEFAULT_K, DEFAULT_K_MAX, MAX_K
from simsift.core.match.passages import PassageOptions
from simsift.core.read.workers import default_workers
from simsift.core.text.features import FeatureWeights

__all__ = ["DEFAULT_K", "DEFAULT_K_MAX", "MAX_K", "ScanOptions"]


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how.

    Args:
        roots: folders (or single files) to scan.
        reference_roots: folders whose files are compared with the others but never
            reported among themselves (assignment prompt, last year's essays).
        exclude: glob patterns for files and folders to leave out.
        compare_garbled: compare documents whose text is garbled (a misread encoding) too;
            by default they are listed with their warning and left out.
        follow_outside_links: read files that links inside the folders point to elsewhere
            (by default such links are listed as skipped: a link to /etc/passwd in an
            essays folder is not an essay).
        weights: feature weighting.
        k_max: pairs are computed once at this distance; any k <= k_max re-clusters instantly.
        workers: reader processes; 0 reads in this process (no time budget; tests, debugging).
        file_timeout: seconds one file may take to read before it is reported and skipped;
            a file larger than 20 MB gets this much per 20 MB (`read_budget`).
        max_file_bytes: larger files are reported, not read.
        memory_limit: bytes each reader process may use; None: half the machine's memory
            shared by the readers, 1-3 GB each (`simsift.core.read.workers.reader_memory_limit`).
        traditional_to_simplified: fold Traditional Chinese to Simplified before hashing.
        ocr: read scanned PDFs and pages, and pictures in DOCX, ODT and HTML, by OCR
            (`simsift.core.read.extract.ocr`, `pictures`);
            off, scans are errors and pictures are left out, neither remembered by the
            catalog, so turning it on reads them.
        passages: passage sizes and thresholds for partial copying and template text.
        scheduler: a Dask scheduler's address (tcp://HOST:8786): files are read on that
            cluster (`simsift.core.pipeline.distributed`); empty: on this machine.
        ship_files: send each file's bytes to the cluster (workers without the files).
    """

    roots: tuple[str, ...]
    reference_roots: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    include_hidden: bool = False
    follow_outside_links: bool = False
    compare_garbled: bool = False
    weights: FeatureWeights = field(default_factory=FeatureWeights)
    k_max: int = DEFAULT_K_MAX
    workers: int = field(default_factory=default_workers)
    file_timeout: float = 60.0
    max_file_bytes: int = MAX_FILE_BYTES
    memory_limit: int | None = None
    traditional_to_simplified: bool = True
    ocr: bool = True
    passages: PassageOptions = field(default_factory=PassageOptions)
    scheduler: str = ""
    ship_files: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.k_max <= MAX_K:
            raise ValueError(f"k_max must be between 0 and {MAX_K}, not {self.k_max}")
