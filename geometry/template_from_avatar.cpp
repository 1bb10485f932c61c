#include "geometry/template_from_avatar.h"

#include "formats/level_set_file.h"

namespace scree::geometry {

ShapeTemplate template_from_avatar(const formats::Avatar& avatar) {
  return template_from_level_set(formats::vdb::sparse_copy(*avatar.phi), avatar.nodes);
}

GrainShape grain_shape_from_avatar(const formats::Avatar& avatar) {
  return grain_shape(template_from_avatar(avatar), avatar.properties);
}

}  // namespace scree::geometry
