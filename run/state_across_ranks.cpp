#include "run/state_across_ranks.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "formats/error.h"
#include "solver/ranks/merge_by_id.h"
#include "solver/ranks/parcel.h"

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

void throw_first_failure(const std::optional<RankFailure>& mine, const solver::Ranks& ranks) {
  // Whether any rank failed first, so that a start without failures sends no text.
  if (ranks.min(mine ? std::uint64_t(0) : std::uint64_t(1)) == 1) return;
  solver::Bytes told;
  if (mine) {
    const std::string file = mine->file.string();
    const std::uint64_t head[4] = {mine->order.first, mine->order.second, file.size(), mine->reason.size()};
    told = solver::to_bytes(std::span<const std::uint64_t>(head));
    told.insert(told.end(), reinterpret_cast<const std::byte*>(file.data()), reinterpret_cast<const std::byte*>(file.data() + file.size()));
    told.insert(told.end(), reinterpret_cast<const std::byte*>(mine->reason.data()),
                reinterpret_cast<const std::byte*>(mine->reason.data() + mine->reason.size()));
  }
  std::optional<RankFailure> first;
  for (const solver::Bytes& bytes : ranks.gather_all(told)) {
    if (bytes.empty()) continue;
    std::uint64_t head[4];
    std::memcpy(head, bytes.data(), sizeof head);
    const std::pair<std::uint64_t, std::uint64_t> order{head[0], head[1]};
    if (first && first->order <= order) continue;
    const char* text = reinterpret_cast<const char*>(bytes.data() + sizeof head);
    first = RankFailure{order, std::string(text, head[2]), std::string(text + head[2], head[3])};
  }
  throw formats::FileError(first->file, first->reason);
}

std::pair<std::size_t, std::size_t> rows_of_rank(std::size_t rows, const solver::Ranks& ranks) {
  // ⌊rows · r / R⌋ without the product's overflow.
  const std::size_t count = std::size_t(ranks.size());
  auto start = [&](int r) { return rows / count * std::size_t(r) + rows % count * std::size_t(r) / count; };
  return {start(ranks.rank()), start(ranks.rank() + 1) - start(ranks.rank())};
}

namespace {

// The rank that keeps an id's share of a directory: ids spread over the ranks without a gather.
int keeper(std::uint64_t id, const solver::Ranks& ranks) { return int(id % std::uint64_t(ranks.size())); }

// (id, row or rank) records to each id's keeper, and what each keeper got from all, by id.
struct IdEntry {
  std::uint64_t id, value;
  bool operator<(const IdEntry& o) const { return id != o.id ? id < o.id : value < o.value; }
};

std::vector<std::vector<IdEntry>> by_keeper(std::span<const IdEntry> entries, const solver::Ranks& ranks) {
  std::vector<std::vector<IdEntry>> to(std::size_t(ranks.size()));
  for (const IdEntry& e : entries) to[std::size_t(keeper(e.id, ranks))].push_back(e);
  return to;
}

}  // namespace

void check_ids_across_ranks(std::span<const std::uint64_t> ids, std::size_t first_row, const std::filesystem::path& file,
                            const solver::Ranks& ranks) {
  std::vector<IdEntry> rows(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) rows[i] = {ids[i], first_row + i};
  std::vector<std::pair<int, solver::Bytes>> sent;
  const auto to = by_keeper(rows, ranks);
  for (int r = 0; r < ranks.size(); ++r)
    if (!to[std::size_t(r)].empty()) sent.emplace_back(r, solver::to_bytes(std::span<const IdEntry>(to[std::size_t(r)])));
  std::vector<IdEntry> kept;
  for (const auto& [from, bytes] : ranks.send_to_any(sent)) {
    const std::vector<IdEntry> got = solver::from_bytes<IdEntry>(bytes);
    kept.insert(kept.end(), got.begin(), got.end());
  }
  std::sort(kept.begin(), kept.end());
  // An id's second row is where one process's reading finds it a duplicate.
  std::optional<RankFailure> failure;
  for (std::size_t k = 1; k < kept.size(); ++k)
    if (kept[k].id == kept[k - 1].id && (k < 2 || kept[k - 2].id != kept[k].id) && (!failure || kept[k].value < failure->order.first))
      failure = RankFailure{{kept[k].value, 0}, file,
                            "body " + std::to_string(kept[k].value) + ": duplicate id " + std::to_string(kept[k].id)};
  throw_first_failure(failure, ranks);
}

OwnContacts contacts_of_own_grains(const formats::StateReader& in, std::span<const std::uint64_t> own_ids,
                                   const solver::Ranks& ranks) {
  const auto [first, count] = rows_of_rank(in.contact_count(), ranks);
  const ContactCache slice = in.read_contacts(first, count);
  // To each keeper: which rank owns the ids it keeps, the rows whose A it keeps, and the grain
  // ids named as B that it keeps, to be found.
  struct Row {
    std::uint64_t row, body_a;
    ContactRecord contact;
  };
  std::vector<IdEntry> owners(own_ids.size()), named_b;
  for (std::size_t i = 0; i < own_ids.size(); ++i) owners[i] = {own_ids[i], std::uint64_t(ranks.rank())};
  std::vector<std::vector<Row>> rows(std::size_t(ranks.size()));
  const std::vector<ContactRecord> records = contact_records(slice);
  for (std::size_t k = 0; k < slice.size(); ++k) {
    rows[std::size_t(keeper(slice.body_a[k], ranks))].push_back({first + k, slice.body_a[k], records[k]});
    if (slice.body_b[k] < formats::first_reserved_id) named_b.push_back({slice.body_b[k], first + k});
  }
  const auto owners_to = by_keeper(owners, ranks), named_to = by_keeper(named_b, ranks);
  std::vector<std::pair<int, solver::Bytes>> sent;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    sent.emplace_back(int(r), solver::Parcel::of(owners_to[r], rows[r], named_to[r]));
  }
  std::vector<IdEntry> owner_of;
  std::vector<Row> kept_rows;
  std::vector<IdEntry> kept_named;
  for (const auto& [from, bytes] : ranks.send_to_any(sent)) {
    solver::ParcelReader parcel(bytes);
    for (const IdEntry& e : parcel.take<IdEntry>()) owner_of.push_back(e);
    for (const Row& row : parcel.take<Row>()) kept_rows.push_back(row);
    for (const IdEntry& e : parcel.take<IdEntry>()) kept_named.push_back(e);
  }
  std::sort(owner_of.begin(), owner_of.end());
  auto owner = [&](std::uint64_t id) -> int {
    const auto it = std::lower_bound(owner_of.begin(), owner_of.end(), IdEntry{id, 0});
    return it != owner_of.end() && it->id == id ? int(it->value) : -1;
  };
  OwnContacts own;
  auto fail = [&](std::uint64_t order, std::uint64_t id) {
    if (!own.failure || order < own.failure->order.first)
      own.failure = RankFailure{{order, 0}, in.file(), "/solver/contacts names body " + std::to_string(id) + ", which is not a grain"};
  };
  std::vector<std::vector<Row>> onward(std::size_t(ranks.size()));
  for (const Row& row : kept_rows) {
    const int to = owner(row.body_a);
    if (to < 0) fail(3 * row.row, row.body_a);
    else onward[std::size_t(to)].push_back(row);
  }
  for (const IdEntry& b : kept_named)
    if (owner(b.id) < 0) fail(3 * b.value + 2, b.id);
  sent.clear();
  for (std::size_t r = 0; r < onward.size(); ++r)
    if (!onward[r].empty()) sent.emplace_back(int(r), solver::to_bytes(std::span<const Row>(onward[r])));
  std::vector<Row> mine;
  for (const auto& [from, bytes] : ranks.send_to_any(sent)) {
    const std::vector<Row> got = solver::from_bytes<Row>(bytes);
    mine.insert(mine.end(), got.begin(), got.end());
  }
  std::sort(mine.begin(), mine.end(), [](const Row& x, const Row& y) { return x.row < y.row; });
  std::vector<std::uint64_t> ids;
  std::vector<ContactRecord> contacts;
  for (const Row& row : mine) {
    own.rows.push_back(row.row);
    ids.push_back(row.body_a);
    contacts.push_back(row.contact);
  }
  own.contacts = contacts_of(ids, records_of(contacts));
  return own;
}

}  // namespace scree::run
