// Sets and relations over the n events of one candidate execution, as dense bit vectors and bit matrices.
// The explicit evaluator computes every cat definition with these; n is small (tens to a few hundred
// events), so word-parallel row operations beat anything cleverer.
#pragma once

#include <cstdint>
#include <vector>

#include "model/Deadline.hpp"

namespace ptxmm::model {

/// A subset of {0..n-1}.
class BitSet {
 public:
  BitSet() = default;
  explicit BitSet(std::size_t n) : n_(n), words_((n + 63) / 64, 0) {}

  std::size_t size() const { return n_; }
  bool test(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void reset(std::size_t i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  bool none() const;
  std::size_t count() const;
  /// The elements in increasing order.
  std::vector<std::size_t> elements() const;

  BitSet& operator|=(const BitSet& o);
  BitSet& operator&=(const BitSet& o);
  /// Removes the elements of o.
  BitSet& subtract(const BitSet& o);
  /// The complement within {0..n-1}.
  BitSet complement() const;
  bool operator==(const BitSet& o) const { return n_ == o.n_ && words_ == o.words_; }

  const std::vector<std::uint64_t>& words() const { return words_; }
  std::vector<std::uint64_t>& words() { return words_; }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint64_t> words_;
};

/// A binary relation on {0..n-1}: row i holds the successors of i.
class BitMatrix {
 public:
  BitMatrix() = default;
  explicit BitMatrix(std::size_t n) : n_(n), stride_((n + 63) / 64), bits_(n * stride_, 0) {}

  static BitMatrix identity(std::size_t n);
  /// [S]: the identity restricted to s.
  static BitMatrix identityOn(const BitSet& s);
  /// S*T.
  static BitMatrix product(const BitSet& s, const BitSet& t);

  std::size_t size() const { return n_; }
  bool test(std::size_t i, std::size_t j) const { return (row(i)[j >> 6] >> (j & 63)) & 1u; }
  void set(std::size_t i, std::size_t j) { row(i)[j >> 6] |= std::uint64_t{1} << (j & 63); }
  void reset(std::size_t i, std::size_t j) { row(i)[j >> 6] &= ~(std::uint64_t{1} << (j & 63)); }
  bool none() const;
  std::size_t count() const;
  /// The pairs in row-major order.
  std::vector<std::pair<std::size_t, std::size_t>> pairs() const;

  BitMatrix& operator|=(const BitMatrix& o);
  BitMatrix& operator&=(const BitMatrix& o);
  BitMatrix& subtract(const BitMatrix& o);
  BitMatrix complement() const;
  BitMatrix inverse() const;
  /// Relational composition this ; o.
  BitMatrix compose(const BitMatrix& o) const;
  /// r+ (Warshall on rows). Cubic: checks `deadline` as it goes (throws LimitReached once it has passed).
  BitMatrix transitiveClosure(const Deadline& deadline = {}) const;
  /// r* = r+ | id.
  BitMatrix reflexiveTransitiveClosure(const Deadline& deadline = {}) const;
  /// r? = r | id.
  BitMatrix reflexiveClosure() const;
  BitSet domain() const;
  BitSet range() const;
  /// Restricts both ends of every pair to s.
  BitMatrix restrictedTo(const BitSet& s) const;
  bool irreflexive() const;
  bool acyclic(const Deadline& deadline = {}) const { return transitiveClosure(deadline).irreflexive(); }
  bool operator==(const BitMatrix& o) const { return n_ == o.n_ && bits_ == o.bits_; }

 private:
  std::uint64_t* row(std::size_t i) { return bits_.data() + i * stride_; }
  const std::uint64_t* row(std::size_t i) const { return bits_.data() + i * stride_; }

  std::size_t n_ = 0;
  std::size_t stride_ = 0;
  std::vector<std::uint64_t> bits_;
};

}  // namespace ptxmm::model
