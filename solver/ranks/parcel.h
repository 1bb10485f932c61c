#pragma once
// Several arrays of plain records in one message between ranks: each array's count, then its
// records, read back in the order they were put in.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "solver/ranks/communicator.h"

namespace scree::solver {

class Parcel {
 public:
  template <class T>
  Parcel& put(const std::vector<T>& records) {
    const std::uint64_t count = records.size();
    const Bytes head = to_bytes<std::uint64_t>(std::span(&count, 1)), body = to_bytes<T>(records);
    bytes_.insert(bytes_.end(), head.begin(), head.end());
    bytes_.insert(bytes_.end(), body.begin(), body.end());
    return *this;
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
