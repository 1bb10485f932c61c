#pragma once
// Several arrays of plain records in one message between ranks: each array's count, then its
// records, read back in the order they were put in.
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/ranks/communicator.h"

namespace scree::solver {

class Parcel {
 public:
  // Appended where the parcel ends, with no copy between (a hand-over's parcels are most of
  // its memory: docs/benchmarks.md, "Issue 28: memory").
  template <class T>
  Parcel& put(std::span<const T> records) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t count = records.size();
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof count + records.size_bytes());
    std::memcpy(bytes_.data() + at, &count, sizeof count);
    if (count > 0) std::memcpy(bytes_.data() + at + sizeof count, records.data(), records.size_bytes());
    return *this;
  }
  template <class T>
  Parcel& put(const std::vector<T>& records) {
    return put(std::span<const T>(records));
  }
  // Room for `bytes` more, so that the puts to come do not grow it by doubling.
  void reserve(std::size_t bytes) { bytes_.reserve(bytes_.size() + bytes); }
  // The bytes of the arrays put in this order, made at their size: put by put, an array
  // after the first grew the message by doubling, which then stood at up to twice its size
  // beside the arrays at a rank's peak of memory (docs/benchmarks.md, "Held no longer than
  // read").
  template <class... T>
  static Bytes of(const std::vector<T>&... arrays) {
    Parcel parcel;
    parcel.reserve(((sizeof(std::uint64_t) + arrays.size() * sizeof(T)) + ...));
    (parcel.put(arrays), ...);
    return std::move(parcel).bytes();
  }
  const Bytes& bytes() const& { return bytes_; }
  Bytes bytes() && { return std::move(bytes_); }  // handed over, not copied
  bool empty() const { return bytes_.empty(); }  // nothing put, not even an empty array

 private:
  Bytes bytes_;
};

class ParcelReader {
 public:
  explicit ParcelReader(const Bytes& bytes) : bytes_(bytes) {}
  template <class T>
  std::vector<T> take() {
    std::uint64_t count = 0;
    if (at_ + sizeof count > bytes_.size()) throw std::length_error("parcel: no more arrays");
    std::memcpy(&count, bytes_.data() + at_, sizeof count);
    at_ += sizeof count;
    if (at_ + count * sizeof(T) > bytes_.size()) throw std::length_error("parcel: an array runs past its end");
    std::vector<T> records(count);
    if (count > 0) std::memcpy(records.data(), bytes_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
    return records;
  }

 private:
  const Bytes& bytes_;
  std::size_t at_ = 0;
};

}  // namespace scree::solver
