#include "run/state_across_ranks.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "formats/error.h"
#include "solver/ranks/merge_by_id.h"

namespace scree::run {

namespace {

using formats::Bodies;
using formats::ContactCache;

// A grain as one record (the file's columns in a row).
struct BodyRecord {
  std::uint32_t template_index;
  double scale;
  formats::Vec3 position;
  formats::Quat orientation;
  formats::Vec3 velocity, angular_velocity;
};

struct ContactRecord {
  std::uint64_t body_b;
  std::int32_t node;
  formats::Vec3 impulse, tangential_displacement;
};

template <class Record>
solver::Bytes records_of(const std::vector<Record>& records) {
  return solver::to_bytes(std::span<const Record>(records));
}

std::vector<BodyRecord> body_records(const Bodies& b) {
  std::vector<BodyRecord> records(b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    records[i] = {b.template_index[i], b.scale[i], b.position[i], b.orientation[i], b.velocity[i], b.angular_velocity[i]};
  return records;
}

Bodies bodies_of(std::span<const std::uint64_t> ids, std::span<const std::byte> bytes) {
  Bodies b;
  b.resize(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    BodyRecord r;
    std::memcpy(&r, bytes.data() + i * sizeof r, sizeof r);
    b.id[i] = ids[i];
    b.template_index[i] = r.template_index;
    b.scale[i] = r.scale;
    b.position[i] = r.position;
    b.orientation[i] = r.orientation;
    b.velocity[i] = r.velocity;
    b.angular_velocity[i] = r.angular_velocity;
  }
  return b;
}

std::vector<ContactRecord> contact_records(const ContactCache& c) {
  std::vector<ContactRecord> records(c.size());
  for (std::size_t k = 0; k < c.size(); ++k) records[k] = {c.body_b[k], c.node[k], c.impulse[k], c.tangential_displacement[k]};
  return records;
}

ContactCache contacts_of(std::span<const std::uint64_t> ids, std::span<const std::byte> bytes) {
  ContactCache c;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    ContactRecord r;
    std::memcpy(&r, bytes.data() + k * sizeof r, sizeof r);
    c.body_a.push_back(ids[k]);
    c.body_b.push_back(r.body_b);
    c.node.push_back(r.node);
    c.impulse.push_back(r.impulse);
    c.tangential_displacement.push_back(r.tangential_displacement);
  }
  return c;
}

}  // namespace

void write_state_across_ranks(const std::filesystem::path& file, const formats::State& head, const Bodies& own,
                              const ContactCache& own_contacts, const solver::Ranks& ranks, std::size_t block) {
  std::array<std::int64_t, 2> counts{std::int64_t(own.size()), std::int64_t(own_contacts.size())};
  ranks.sum(counts);
  // Rank 0 writes; what stops it is kept until every round has run, then told to all.
  std::optional<formats::StateWriter> out;
  std::string failure;
  auto attempt = [&](auto&& write) {
    if (!failure.empty()) return;
    try {
      write();
    } catch (const formats::FileError& e) {
      failure = e.reason();
      out.reset();
    } catch (const std::exception& e) {  // not left to strand the other ranks in a round
      failure = std::string("cannot write: ") + e.what();
      out.reset();
    }
  };
  if (ranks.rank() == 0)
    attempt([&] { out.emplace(file, head, std::size_t(counts[0]), std::size_t(counts[1])); });
  solver::merge_by_id(own.id, records_of(body_records(own)), sizeof(BodyRecord), block, ranks,
                      [&](std::span<const std::uint64_t> ids, std::span<const std::byte> bytes) {
                        attempt([&] { out->write_bodies(bodies_of(ids, bytes)); });
                      });
  if (head.solver)
    solver::merge_by_id(own_contacts.body_a, records_of(contact_records(own_contacts)), sizeof(ContactRecord), block, ranks,
                        [&](std::span<const std::uint64_t> ids, std::span<const std::byte> bytes) {
                          attempt([&] { out->write_contacts(contacts_of(ids, bytes)); });
                        });
  if (ranks.rank() == 0) attempt([&] { out->commit(); });
  const std::vector<solver::Bytes> told =
      ranks.gather_all(solver::to_bytes(std::span<const char>(failure.data(), failure.size())));
  const std::vector<char> reason = solver::from_bytes<char>(told.front());
  if (!reason.empty()) throw formats::FileError(file, std::string(reason.begin(), reason.end()));
}

}  // namespace scree::run
