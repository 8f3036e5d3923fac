"""GloVe 6B 50d from the installed package: checksums, lookups, unknown words, splitting."""

import shutil

import pyarrow.parquet as pq
import pytest
import torch

from attention_core import AttentionInputError
from real_model import DataFileError, glove_vectors, load_glove, shared_glove, split_words
from real_model.files import sha256_of
from real_model.glove import GLOVE_SHA256, VECTORS_FILE, WORDS_FILE, glove_folder

# Seed 001, In [6]: embeddings_dict['ship'], printed to four decimals.
SHIP = [
    1.5213, 0.1052, 0.3816, -0.5080, 0.0324, -0.1348, -1.2474, 0.7981, 0.8469, -1.1010,
    0.8874, 1.3749, 0.4293, 0.6572, -0.2636, -0.4176, -0.4885, 0.9106, -1.7158, -0.4380,
    0.7839, 0.1964, -0.4066, -0.5397, 0.8244, -1.7434, 0.1428, 0.2804, 1.1688, 0.1690,
    2.2271, -0.5827, -0.4572, 0.6281, 0.5444, 0.2846, 0.4448, -0.5534, -0.3649, -0.0164,
    0.4088, -0.8715, 1.5513, -0.8070, -0.1004, -0.2846, -0.3322, -0.5061, 0.4827, -0.6620,
]  # fmt: skip
# Seed 001, In [13]: X_o[0][:10], the vector of "i" (e-notation, five significant digits).
I_START = [
    1.1891e-01, 1.5255e-01, -8.2073e-02, -7.4144e-01, 7.5917e-01,
    -4.8328e-01, -3.1009e-01, 5.1476e-01, -9.8708e-01, 6.1757e-04,
]  # fmt: skip


@pytest.fixture(scope="module")
def glove():
    return shared_glove()


def test_ship_is_seed_001s_vector(glove):
    embeddings, unknown = glove_vectors(["ship"])
    assert unknown == []
    assert embeddings.tokens == ("ship",)
    assert torch.allclose(embeddings.values[0], torch.tensor(SHIP), atol=1e-4, rtol=0)
    embeddings, _ = glove_vectors(["I"])  # lowercased, as seed 001 does
    assert torch.allclose(embeddings.values[0, :10], torch.tensor(I_START), atol=1e-6, rtol=1e-4)


def test_rows_are_in_glove_file_order(glove):
    assert len(glove) == 400_000
    assert [glove.row_of(w) for w in ("the", ",", ".", "of", "to")] == [0, 1, 2, 3, 4]
    # First line of glove.6B.50d.txt: "the 0.418 0.24968 -0.41242 0.1217 0.34527 ..."
    the = glove.most_frequent(1)[0, :5]
    assert torch.allclose(the, torch.tensor([0.418, 0.24968, -0.41242, 0.1217, 0.34527]))


def test_every_sampled_word_is_found_at_its_own_row(glove):
    words = pq.read_table(glove_folder() / WORDS_FILE).column("index").to_pylist()
    generator = torch.Generator().manual_seed(13)
    sample = [0, 1, 399_999, *torch.randint(0, 400_000, (2000,), generator=generator).tolist()]
    assert all(glove.row_of(words[row]) == row for row in sample)
    assert glove.row_of("qzxqzxq") is None
    assert glove.row_of("") is None
    assert "ship" in glove and "Ship" not in glove  # GloVe 6B is all lowercase


def test_unknown_words_are_named_in_order_not_dropped(glove):
    embeddings, unknown = glove_vectors(["We", "qzxqzx", "ship", "blorptastic", "qzxqzx", "to"])
    assert embeddings.tokens == ("we", "ship", "to")
    assert unknown == ["qzxqzx", "blorptastic"]
    assert embeddings.values.shape == (3, 50)


def test_no_known_word_is_an_error_naming_them(glove):
    with pytest.raises(AttentionInputError, match="“qzxqzx”, “blorptastic”"):
        glove_vectors(["qzxqzx", "blorptastic"])
    with pytest.raises(AttentionInputError, match="at least one word"):
        glove_vectors([])


def test_split_words_lowercases_like_seed_001_and_keeps_punctuation(glove):
    odyssey = "I must go back to my ship and to my crew"
    assert split_words(odyssey) == odyssey.lower().split()
    assert split_words("We ship your order.") == ["we", "ship", "your", "order", "."]
    assert split_words('"Now!" said the U.S. crew...') == [
        '"', "now", "!", '"', "said", "the", "u.s.", "crew", "...",
    ]  # fmt: skip
    assert split_words("   ") == []


def test_the_installed_files_have_the_recorded_checksums():
    for name, digest in GLOVE_SHA256.items():
        assert sha256_of(glove_folder() / name) == digest


@pytest.mark.parametrize("corrupted", [WORDS_FILE, VECTORS_FILE])
def test_a_corrupted_copy_is_refused_naming_the_file(tmp_path, corrupted):
    for name in GLOVE_SHA256:
        if name == corrupted:
            shutil.copyfile(glove_folder() / name, tmp_path / name)
        else:
            (tmp_path / name).symlink_to(glove_folder() / name)
    with (tmp_path / corrupted).open("r+b") as handle:
        handle.seek(200_000 if corrupted == WORDS_FILE else 40_000_000)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0x01]))
    with pytest.raises(DataFileError, match=f"{corrupted} has SHA-256 .* not the recorded"):
        load_glove(tmp_path)


def test_a_missing_file_is_named(tmp_path):
    (tmp_path / VECTORS_FILE).symlink_to(glove_folder() / VECTORS_FILE)
    with pytest.raises(DataFileError, match=f"{WORDS_FILE} is missing"):
        load_glove(tmp_path)


def test_an_intact_copy_loads_like_the_package(tmp_path):
    for name in GLOVE_SHA256:
        (tmp_path / name).symlink_to(glove_folder() / name)
    copy = load_glove(tmp_path)
    assert copy.row_of("ship") == shared_glove().row_of("ship") == 1370


def test_one_load_per_process():
    assert shared_glove() is shared_glove()
