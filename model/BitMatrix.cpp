// Word-parallel implementations of the set and relation operations of BitMatrix.hpp.
#include "model/BitMatrix.hpp"

#include <bit>

namespace ptxmm::model {

bool BitSet::none() const {
  for (auto w : words_)
    if (w) return false;
  return true;
}

std::size_t BitSet::count() const {
  std::size_t c = 0;
  for (auto w : words_) c += static_cast<std::size_t>(std::popcount(w));
  return c;
}

std::vector<std::size_t> BitSet::elements() const {
  std::vector<std::size_t> out;
  for (std::size_t wi = 0; wi < words_.size(); ++wi)
    for (auto w = words_[wi]; w; w &= w - 1) out.push_back(wi * 64 + static_cast<std::size_t>(std::countr_zero(w)));
  return out;
}

BitSet& BitSet::operator|=(const BitSet& o) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
  return *this;
}

BitSet& BitSet::operator&=(const BitSet& o) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
  return *this;
}

BitSet& BitSet::subtract(const BitSet& o) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= ~o.words_[i];
  return *this;
}

BitSet BitSet::complement() const {
  BitSet out(n_);
  for (std::size_t i = 0; i < words_.size(); ++i) out.words_[i] = ~words_[i];
  if (n_ % 64) out.words_.back() &= (std::uint64_t{1} << (n_ % 64)) - 1;
  return out;
}

BitMatrix BitMatrix::identity(std::size_t n) {
  BitMatrix m(n);
  for (std::size_t i = 0; i < n; ++i) m.set(i, i);
  return m;
}

BitMatrix BitMatrix::identityOn(const BitSet& s) {
  BitMatrix m(s.size());
  for (auto i : s.elements()) m.set(i, i);
  return m;
}

BitMatrix BitMatrix::product(const BitSet& s, const BitSet& t) {
  BitMatrix m(s.size());
  for (auto i : s.elements())
    for (std::size_t w = 0; w < m.stride_; ++w) m.row(i)[w] = t.words()[w];
  return m;
}

bool BitMatrix::none() const {
  for (auto w : bits_)
    if (w) return false;
  return true;
}

std::size_t BitMatrix::count() const {
  std::size_t c = 0;
  for (auto w : bits_) c += static_cast<std::size_t>(std::popcount(w));
  return c;
}

std::vector<std::pair<std::size_t, std::size_t>> BitMatrix::pairs() const {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t wi = 0; wi < stride_; ++wi)
      for (auto w = row(i)[wi]; w; w &= w - 1) out.emplace_back(i, wi * 64 + static_cast<std::size_t>(std::countr_zero(w)));
  return out;
}

BitMatrix& BitMatrix::operator|=(const BitMatrix& o) {
  for (std::size_t i = 0; i < bits_.size(); ++i) bits_[i] |= o.bits_[i];
  return *this;
}

BitMatrix& BitMatrix::operator&=(const BitMatrix& o) {
  for (std::size_t i = 0; i < bits_.size(); ++i) bits_[i] &= o.bits_[i];
  return *this;
}

BitMatrix& BitMatrix::subtract(const BitMatrix& o) {
  for (std::size_t i = 0; i < bits_.size(); ++i) bits_[i] &= ~o.bits_[i];
  return *this;
}

BitMatrix BitMatrix::complement() const {
  BitMatrix out(n_);
  const std::uint64_t lastMask = n_ % 64 ? (std::uint64_t{1} << (n_ % 64)) - 1 : ~std::uint64_t{0};
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t w = 0; w < stride_; ++w)
      out.row(i)[w] = ~row(i)[w] & (w + 1 == stride_ ? lastMask : ~std::uint64_t{0});
  return out;
}

BitMatrix BitMatrix::inverse() const {
  BitMatrix out(n_);
  for (auto [i, j] : pairs()) out.set(j, i);
  return out;
}

BitMatrix BitMatrix::compose(const BitMatrix& o) const {
  BitMatrix out(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    std::uint64_t* dst = out.row(i);
    for (std::size_t wi = 0; wi < stride_; ++wi)
      for (auto w = row(i)[wi]; w; w &= w - 1) {
        const std::uint64_t* src = o.row(wi * 64 + static_cast<std::size_t>(std::countr_zero(w)));
        for (std::size_t k = 0; k < stride_; ++k) dst[k] |= src[k];
      }
  }
  return out;
}

BitMatrix BitMatrix::transitiveClosure(const Deadline& deadline) const {
  BitMatrix out = *this;
  for (std::size_t k = 0; k < n_; ++k) {
    if (k % 64 == 0) deadline.check("computing a transitive closure");
    const std::uint64_t* rk = out.row(k);
    for (std::size_t i = 0; i < n_; ++i)
      if (out.test(i, k)) {
        std::uint64_t* ri = out.row(i);
        for (std::size_t w = 0; w < stride_; ++w) ri[w] |= rk[w];
      }
  }
  return out;
}

BitMatrix BitMatrix::reflexiveTransitiveClosure(const Deadline& deadline) const {
  BitMatrix out = transitiveClosure(deadline);
  for (std::size_t i = 0; i < n_; ++i) out.set(i, i);
  return out;
}

BitMatrix BitMatrix::reflexiveClosure() const {
  BitMatrix out = *this;
  for (std::size_t i = 0; i < n_; ++i) out.set(i, i);
  return out;
}

BitSet BitMatrix::domain() const {
  BitSet out(n_);
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t w = 0; w < stride_; ++w)
      if (row(i)[w]) {
        out.set(i);
        break;
      }
  return out;
}

BitSet BitMatrix::range() const {
  BitSet out(n_);
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t w = 0; w < stride_; ++w) out.words()[w] |= row(i)[w];
  return out;
}

BitMatrix BitMatrix::restrictedTo(const BitSet& s) const {
  BitMatrix out(n_);
  for (auto i : s.elements())
    for (std::size_t w = 0; w < stride_; ++w) out.row(i)[w] = row(i)[w] & s.words()[w];
  return out;
}

bool BitMatrix::irreflexive() const {
  for (std::size_t i = 0; i < n_; ++i)
    if (test(i, i)) return false;
  return true;
}

}  // namespace ptxmm::model
